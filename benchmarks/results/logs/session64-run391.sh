#!/usr/bin/env bash
# Session 64, run 391 (one H200; the session's last device call): the half tile's fp16/bf16 kernels (64 channels,
# T 3, x per position or in pairs; no rule yet, TCONV_UNIT_STRIDE_HALF_TILE=2 puts every call with a kernel on it).
# 1. Tests: the half-tile choice at modes 1 (default) and 2, and the unit-stride grids (fp32/TF32, fp16, bf16) at
#    mode 2, where every 64-channel tile runs the half tile (the 16-bit ones at T 3).
# 2. The bf16 fixed-cost sweep of fam01 (64 channels, k3x3) at modes 2 and 0, and fam01 bf16 quick timing at both:
#    the numbers for StripUnitStrideHalfTileRule::kMaxK16Bit.
# 3. Verified bench rows: fam01 TF32 (the fp32 half tile's row; run 390's timed out at 60 s), fam01 bf16.
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 60 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k "unit_stride_half_tile" 2>&1 | tail -3 \
  | tee "$LOG/pytest_half_mode1.log"
left 300 && TCONV_UNIT_STRIDE_HALF_TILE=2 timeout 100 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "strip_unit_stride or unit_stride_half_tile or unit_stride_x_pairs" 2>&1 | tail -4 | tee "$LOG/pytest_half_mode2.log"
echo "== sweep at $(( $(date +%s) - start )) s"
for half in 2 0; do
  left 360 && (cd scripts && TCONV_UNIT_STRIDE_HALF_TILE=$half timeout 40 python3 unit_stride_fixed_cost.py --only \
    fam01 --precision bf16 --runs 10 --json "$LOG/fixed_cost_bf16_half_$half.json" 2>&1 | grep -v Warn \
    | sed "s/^/HALF=$half /") | tee -a "$LOG/fixed_cost.log"
done
for half in 2 0; do
  left 400 && (cd scripts && TCONV_UNIT_STRIDE_HALF_TILE=$half timeout 35 python3 quick_timing.py \
    fam01_convt2d_k3_1024x1024 --precision bf16 --runs 10 --warmup 2 --json "$LOG/fam01_bf16_half_$half.json" 2>&1 \
    | grep -v Warn | sed "s/^/HALF=$half /") | tee -a "$LOG/timing_half.log"
done
echo "== bench at $(( $(date +%s) - start )) s"
for row in fam01_convt2d_k3_1024x1024:tf32:100 fam01_convt2d_k3_1024x1024:bf16:80; do
  IFS=: read -r stem precision limit <<< "$row"
  left $(( 580 - limit )) && timeout "$limit" python3 -m tconv bench "$stem" --precision "$precision" --no-compile \
    --runs 20 --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee -a "$LOG/bench.log" | grep -v "^chart\|^results"
done
rm -f "$OUT"/*.png
device_finish
