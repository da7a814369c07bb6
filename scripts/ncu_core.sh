#!/usr/bin/env bash
# Nsight Compute on the kernels behind the misses in notes/perf.md (one GPU call; reports under $OUT).
# Usage: OUT=dir bash scripts/ncu_core.sh   (after `python3 -m tconv build`)
# --clock-control none: ncu would otherwise lock the GPU's clocks to base, and we never change them.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
mkdir -p "$OUT"
SECTIONS="--section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats"
# The workload is scripts/quick_timing.py with one timed run (its warm-up forward+backward comes
# first); the kernel regex picks the kernels, the launch count keeps the first two of them.
run() {  # name, problem stem, precision, kernel regex
  echo "=== $1"
  timeout 240 ncu --clock-control none --target-processes all -k "regex:$4" --launch-skip 0 --launch-count 2 $SECTIONS \
    python3 scripts/quick_timing.py "$2" --precision "$3" --runs 1 --warmup 1 > "$OUT/ncu_$1.txt" 2>&1
  grep -E "Duration|Registers Per|Achieved Occupancy|Memory Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|No Eligible" "$OUT/ncu_$1.txt" | head -16
}
run l1_68_fwd_gemm l1_68_convt3d_square_input_asym_kernel tf32 "gather_tf32"
run l1_68_grad_weight l1_68_convt3d_square_input_asym_kernel tf32 "grad_weight_tf32"
run l1_73_fwd_grouped l1_73_convt3d_strided_padded_grouped tf32 "grouped_forward"
run l1_73_grad_input_grouped l1_73_convt3d_strided_padded_grouped tf32 "grouped_grad_input"
run hifigan_fwd_gemm real_hifigan_up tf32 "gather_tf32"
run hifigan_grad_weight real_hifigan_up tf32 "grad_weight"
run l2_61_epilogue l2_61_convt3d_relu_groupnorm tf32 "stats_channels|normalize_channels"
