#!/usr/bin/env bash
# Nsight Compute on the kernels behind the misses in notes/perf.md (one GPU call; reports under $OUT).
# Usage: OUT=dir bash scripts/ncu_core.sh   (after `python3 -m tconv build`)
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
mkdir -p "$OUT"
SECTIONS="--section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats"
run() {  # name, problem stem, pass, precision, kernel regex
  echo "=== $1"
  timeout 240 ncu --target-processes all -k "regex:$5" --launch-skip 0 --launch-count 2 $SECTIONS \
    python3 scripts/ncu_core.py "$2" "$3" "$4" > "$OUT/ncu_$1.txt" 2>&1
  grep -E "Duration|Registers Per|Achieved Occupancy|Memory Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|No Eligible" "$OUT/ncu_$1.txt" | head -16
}
run l1_68_fwd_gemm l1_68_convt3d_square_input_asym_kernel fwd tf32 "gather_tf32"
run l1_68_grad_weight l1_68_convt3d_square_input_asym_kernel fwdbwd tf32 "grad_weight_tf32"
run l1_73_fwd_grouped l1_73_convt3d_strided_padded_grouped fwd tf32 "grouped_forward"
run l1_73_grad_input_grouped l1_73_convt3d_strided_padded_grouped fwdbwd tf32 "grouped_grad_input"
run hifigan_fwd_gemm real_hifigan_up fwd tf32 "gather_tf32"
run l2_61_epilogue l2_61_convt3d_relu_groupnorm fwd tf32 "stats_channels|normalize_channels"
