#!/usr/bin/env bash
# Session 65, run 393 (one H200), prepared in session 64.
# 1. Why the 16-bit half tile's K loop is cheaper per K than the 256-row tile's (run 391, fam01 bf16: 2.569 against
#    2.884 us per K): warp-stall breakdowns of fam01's bf16 unit-stride forward on the half tile (the default) and on
#    the 256-row tile (TCONV_UNIT_STRIDE_HALF_TILE=0). If the 256-row tile's two warpgroups stall on the barrier
#    between stages, a one-warpgroup form of the 128-channel 16-bit tiles (L2-61's forward, fam04, fam06) is next.
# 2. The same for fam04 bf16 (128 channels, 256-row tile only), the shape that form would serve.
# 3. Verified bf16 bench rows the 16-bit half tile changed: fam03, L2-61 (its grad_input), fam07 (its grad_input).
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
echo "== ncu at $(( $(date +%s) - start )) s"
left 300 && OUT="$LOG" KERNEL=unit_stride_forward CASES="fam01_bf16_half:fam01_convt2d_k3_1024x1024:bf16:igemm_strip" \
  timeout 80 bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_half.log"
left 360 && TCONV_UNIT_STRIDE_HALF_TILE=0 OUT="$LOG" KERNEL=unit_stride_forward \
  CASES="fam01_bf16_full:fam01_convt2d_k3_1024x1024:bf16:igemm_strip \
fam04_bf16_full:fam04_convt1d_k3_65536:bf16:igemm_strip" \
  timeout 140 bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_full.log"
echo "== bench at $(( $(date +%s) - start )) s"
bench_rows 580 fam03_convt3d_k3_64x64x64:bf16:60 l2_61_convt3d_relu_groupnorm:bf16:50 \
  fam07_convt3d_k3_96x96x96:bf16:90
device_finish
