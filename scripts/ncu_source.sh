#!/usr/bin/env bash
# Per-SASS-instruction executed counts and warp-stall samples of one tconv kernel (Nsight Compute source
# page, CSV), for reading its main loop's hot path offline. One GPU call; CSVs under $OUT.
# Usage: OUT=dir [KERNEL=regex] [CASES="name:stem:precision[:algorithm[:layout]] ..."] bash scripts/ncu_source.sh
#        (after `python3 -m tconv build`). Defaults: the forward gather GEMM on three shapes.
# KERNEL=grad_weight profiles the first grad_weight launch (quick_timing's warm-up forward+backward).
# Read them offline with scripts/ncu_source_summary.py (stall reasons, hottest instructions, mbarrier waits).
# --clock-control none: ncu would otherwise lock the GPU's clocks to base, and we never change them.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
KERNEL="${KERNEL:-gather_tf32}"
CASES="${CASES:-l2_61_bf16:l2_61_convt3d_relu_groupnorm:bf16 l2_61_tf32:l2_61_convt3d_relu_groupnorm:tf32
l1_68_tf32:l1_68_convt3d_square_input_asym_kernel:tf32}"
mkdir -p "$OUT"
for case in $CASES; do
  IFS=: read -r name stem precision algorithm layout <<< "$case"
  echo "=== $name ($KERNEL)"
  timeout 200 ncu --clock-control none -k "regex:$KERNEL" --launch-skip 0 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section InstructionStats --import-source no \
    --page source --print-source sass --csv \
    python3 scripts/quick_timing.py "$stem" --precision "$precision" --runs 1 --warmup 1 \
    --algorithm "${algorithm:-auto}" --layout "${layout:-contiguous}" > "$OUT/src_$name.csv" 2> "$OUT/src_$name.err"
  wc -l "$OUT/src_$name.csv"; tail -3 "$OUT/src_$name.err"
done
