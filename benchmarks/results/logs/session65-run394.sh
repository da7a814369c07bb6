#!/usr/bin/env bash
# Session 65, run 394 (one H200): the half tile's new fp16/bf16 kernels (64 channels at T 5 and 7; 128 channels at
# T 3 and 5 as two m64 halves, kChannelHalves), under TCONV_UNIT_STRIDE_HALF_TILE=2 (no rule takes them yet).
# 1. Tests at mode 2: the unit-stride grids (TF32, fp16, bf16), x pairs and the half-tile choice test.
# 2. bf16 quick timing at modes 1 (the rule as committed) and 2 on the rows the new kernels serve: fam04 (128
#    channels, T 3: forward and grad_input), fam06 (forward 128 channels T 5, grad_input 64 channels T 5), fam05 (64
#    channels T 7: both).
# 3. Stall breakdown of fam04's bf16 forward on the 128-channel half tile (run 393 had the 256-row tile's).
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
TCONV_UNIT_STRIDE_HALF_TILE=2 timeout 120 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "strip_unit_stride or unit_stride_half_tile or unit_stride_x_pairs" 2>&1 | tail -4 | tee "$LOG/pytest_half_mode2.log"
echo "== timing at $(( $(date +%s) - start )) s"
for round in 1 2; do
  for half in 2 1; do
    left 480 && (cd scripts && TCONV_UNIT_STRIDE_HALF_TILE=$half timeout 60 python3 quick_timing.py \
      fam04_convt1d_k3_65536 fam06_convt2d_k3x5_128x256 fam05_convt2d_k3x7_512x512 --precision bf16 --runs 10 \
      --warmup 2 --json "$LOG/bf16_half_${half}_r$round.json" 2>&1 | grep -v Warn \
      | sed "s/^/HALF=$half /") | tee -a "$LOG/timing_half.log"
  done
done
echo "== ncu at $(( $(date +%s) - start )) s"
left 520 && TCONV_UNIT_STRIDE_HALF_TILE=2 OUT="$LOG" KERNEL=unit_stride_forward \
  CASES="fam04_bf16_half:fam04_convt1d_k3_65536:bf16:igemm_strip" \
  timeout 60 bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_half.log"
device_finish
