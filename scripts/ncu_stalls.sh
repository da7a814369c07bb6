#!/usr/bin/env bash
# Nsight Compute warp-stall breakdown of one tconv kernel per case (one GPU call; reports under $OUT).
# Usage: OUT=dir [KERNEL=regex] [CASES="name:stem:precision[:algorithm[:layout]] ..."] bash scripts/ncu_stalls.sh
#        (after `python3 -m tconv build`). Defaults: the forward gather GEMM on five shapes.
# KERNEL=grad_weight profiles the first grad_weight launch (quick_timing's warm-up forward+backward).
# --clock-control none: ncu would otherwise lock the GPU's clocks to base, and we never change them.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
KERNEL="${KERNEL:-gather_tf32}"
CASES="${CASES:-l2_61_bf16:l2_61_convt3d_relu_groupnorm:bf16 l2_61_tf32:l2_61_convt3d_relu_groupnorm:tf32
fam06_bf16:fam06_convt2d_k3x5_128x256:bf16 l1_68_bf16:l1_68_convt3d_square_input_asym_kernel:bf16
dcgan_bf16:real_dcgan_up:bf16}"
mkdir -p "$OUT"
METRICS="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
METRICS="$METRICS,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"
METRICS="$METRICS,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,lts__t_bytes.sum.per_second"
SECTIONS="--section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats"
for case in $CASES; do
  IFS=: read -r name stem precision algorithm layout <<< "$case"
  echo "=== $name ($KERNEL)"
  timeout 200 ncu --clock-control none -k "regex:$KERNEL" --launch-skip 0 --launch-count 1 $SECTIONS \
    --metrics "$METRICS" python3 scripts/quick_timing.py "$stem" --precision "$precision" --runs 1 --warmup 1 \
    --algorithm "${algorithm:-auto}" --layout "${layout:-contiguous}" \
    > "$OUT/ncu_$name.txt" 2>&1
  grep -E "Duration|Registers Per|Achieved Occupancy|Compute \(SM\) Throughput|L2 Cache Throughput|DRAM Throughput|Warp Cycles Per Issued|Issue Slots Busy|No Eligible|hmma_cycles|pipe_lsu|lts__t_bytes" \
    "$OUT/ncu_$name.txt" | head -16
  grep -E "issue_stalled_.*ratio" "$OUT/ncu_$name.txt" | awk '{print $NF, $1}' | sort -gr | head -8
done
