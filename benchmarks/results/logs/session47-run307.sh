#!/usr/bin/env bash
# Run 307: where the fp32 unit-stride forward's time goes now that two blocks share an SM (72f68c3): ncu sections
# (with MemoryWorkloadAnalysis for shared-memory wavefronts) and the source page of L1-71's TF32 forward launch, then
# verified `tconv bench` rows of L1-71 and fam08 in TF32.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build > /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; echo BUILD FAILED; exit 1; }
tail -1 /tmp/build.log
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SchedulerStats --section WarpStateStats --section InstructionStats --section LaunchStats --section Occupancy"
timeout 150 ncu --clock-control none --kernel-name regex:"unit_stride_mma_kernel" --launch-count 1 $S \
  python3 scripts/quick_timing.py l1_71_convt2d_asym_input_square_kernel --precision tf32 --runs 1 --warmup 1 \
  > "$OUT/ncu_l1_71_tf32_fwd.txt" 2>&1
echo "ncu rc $?"; grep -E "Duration|Executed Instructions  |Issue Slots Busy|Registers Per|highest-utilized|Achieved Active Warps|Block Limit|Bank|Shared" "$OUT/ncu_l1_71_tf32_fwd.txt" | cut -c1-150
KERNEL=unit_stride_mma_kernel CASES="l1_71_tf32:l1_71_convt2d_asym_input_square_kernel:tf32" OUT=/tmp/src bash scripts/ncu_source.sh
gzip -c /tmp/src/src_l1_71_tf32.csv > "$OUT/src_l1_71_tf32.csv.gz"
python3 scripts/ncu_source_summary.py /tmp/src/src_l1_71_tf32.csv --top 30 > "$OUT/src_l1_71_tf32_summary.txt" 2>&1
head -40 "$OUT/src_l1_71_tf32_summary.txt"
timeout 240 python3 -m tconv bench l1_71_convt2d_asym_input_square_kernel fam08_convt1d_k5_d3_131072 --precision tf32 \
  --no-compile --runs 20 --warmup 3 --out "$OUT/bench" 2>&1 | grep -vE "^\s*$" | tail -8
rm -f "$OUT"/bench/*.png
