#!/usr/bin/env bash
# Nsight Compute warp-stall breakdown of the forward gather GEMM, bf16 against TF32 (one GPU call;
# reports under $OUT). Usage: OUT=dir bash scripts/ncu_stalls.sh   (after `python3 -m tconv build`)
# --clock-control none: ncu would otherwise lock the GPU's clocks to base, and we never change them.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
mkdir -p "$OUT"
METRICS="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
SECTIONS="--section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats"
# The first gather launch of scripts/quick_timing.py is its warm-up forward.
run() {  # name, problem stem, precision, [extra ncu args]
  echo "=== $1"
  timeout 200 ncu --clock-control none -k "regex:gather_tf32" --launch-skip 0 --launch-count 1 $SECTIONS \
    --metrics "$METRICS" ${4:-} python3 scripts/quick_timing.py "$2" --precision "$3" --runs 1 --warmup 1 \
    > "$OUT/ncu_$1.txt" 2>&1
  grep -E "Duration|Registers Per|Achieved Occupancy|Compute \(SM\) Throughput|Warp Cycles Per Issued|Issue Slots Busy|No Eligible" "$OUT/ncu_$1.txt" | head -12
  grep -E "issue_stalled_.*ratio" "$OUT/ncu_$1.txt" | awk '{print $NF, $1}' | sort -gr | head -8
}
run l2_61_bf16 l2_61_convt3d_relu_groupnorm bf16 "--section SourceCounters"
run l2_61_tf32 l2_61_convt3d_relu_groupnorm tf32
run fam06_bf16 fam06_convt2d_k3x5_128x256 bf16
run l1_68_bf16 l1_68_convt3d_square_input_asym_kernel bf16
run dcgan_bf16 real_dcgan_up bf16
