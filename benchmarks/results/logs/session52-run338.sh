#!/usr/bin/env bash
# Run 338: Nsight Compute on L1-68's TF32 forward: the TMA window kernel ("igemm_tma_window", f4433e6) against the
# unit-stride kernel "auto" runs (sections: speed of light, occupancy, warp states, memory workload), to name what
# holds the window at level with it (run 337: 6.10-6.13 vs 6.07-6.08 ms).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
SECTIONS="--section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats"
run() {  # name, algorithm, kernel regex
  timeout 110 ncu --clock-control none --target-processes all -k "regex:$3" --launch-skip 0 --launch-count 1 $SECTIONS \
    python3 scripts/quick_timing.py l1_68_convt3d_square_input_asym_kernel --precision tf32 --algorithm "$2" --runs 1 \
    --warmup 1 > "$OUT/ncu_$1.txt" 2>&1
  echo "=== $1"
  grep -E "Duration|Registers Per|Achieved Occupancy|Memory Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|No Eligible|Shared Memory|L1/TEX Hit|L2 Hit|Issue Slots Busy|Stall" "$OUT/ncu_$1.txt" | head -24
}
run window igemm_tma_window "tma_window"
echo "after $(( $(date +%s) - start )) s"
run unit_stride auto "unit_stride"
echo "total $(( $(date +%s) - start )) s"
