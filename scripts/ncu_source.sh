#!/usr/bin/env bash
# Per-SASS-instruction executed counts and warp-stall samples of the forward gather GEMM (Nsight
# Compute source page, CSV), for reading the main loop's hot path offline. One GPU call; CSVs under $OUT.
# Usage: OUT=dir bash scripts/ncu_source.sh   (after `python3 -m tconv build`)
# --clock-control none: ncu would otherwise lock the GPU's clocks to base, and we never change them.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
mkdir -p "$OUT"
run() {  # name, problem stem, precision
  echo "=== $1"
  timeout 200 ncu --clock-control none -k "regex:gather_tf32" --launch-skip 0 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section InstructionStats --import-source no \
    --page source --print-source sass --csv \
    python3 scripts/quick_timing.py "$2" --precision "$3" --runs 1 --warmup 1 > "$OUT/src_$1.csv" 2> "$OUT/src_$1.err"
  wc -l "$OUT/src_$1.csv"; tail -3 "$OUT/src_$1.err"
}
run l2_61_bf16 l2_61_convt3d_relu_groupnorm bf16
run l2_61_tf32 l2_61_convt3d_relu_groupnorm tf32
run l1_68_tf32 l1_68_convt3d_square_input_asym_kernel tf32
