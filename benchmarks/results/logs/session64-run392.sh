#!/usr/bin/env bash
# Session 64, run 392 (one H200; the session's last device time, ~580 s): the half tile is "auto"'s for 16-bit
# 64-channel tiles at T 3 whatever K (run 391: fam01's bf16 sweep won at every K, per-K cost lower too).
# 1. The half-tile choice test at the default mode (the rule as it lands).
# 2. bf16 quick timing, the rule on / TCONV_UNIT_STRIDE_HALF_TILE=0, on the rows it newly takes: fam01 (forward and
#    grad_input), fam03 (48 channels, 3D k3: both), fam07 (its grad_input: 48 channels), L2-61 (its grad_input: 64).
# 3. The verified bench row of fam01 bf16. Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 40 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k "unit_stride_half_tile" 2>&1 | tail -3 \
  | tee "$LOG/pytest_half.log"
echo "== timing at $(( $(date +%s) - start )) s"
for half in 1 0; do
  left 300 && (cd scripts && TCONV_UNIT_STRIDE_HALF_TILE=$half timeout 60 python3 quick_timing.py \
    fam01_convt2d_k3_1024x1024 fam03_convt3d_k3_64x64x64 fam07_convt3d_k3_96x96x96 l2_61_convt3d_relu_groupnorm \
    --precision bf16 --runs 10 --warmup 2 --json "$LOG/bf16_half_$half.json" 2>&1 | grep -v Warn \
    | sed "s/^/HALF=$half /") | tee -a "$LOG/timing_half.log"
done
echo "== bench at $(( $(date +%s) - start )) s"
left 400 && timeout 80 python3 -m tconv bench fam01_convt2d_k3_1024x1024 --precision bf16 --no-compile --runs 20 \
  --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee -a "$LOG/bench.log" | grep -v "^chart\|^results"
rm -f "$OUT"/*.png
device_finish
