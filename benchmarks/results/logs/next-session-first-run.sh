#!/usr/bin/env bash
# Prepared in session 62 for the next session's first GPU call (one H200; rename to sessionNN-runMMM.sh when it runs).
# 1. HiFi-GAN's TF32 strip grad_weight (3.80 ms with the by-channel x copies; cuDNN's wgrad 2.51): neither L2
#    (session 61) nor shared memory (run 381: 438 M wavefronts, ~ideal) is its limit, so its warp-stall breakdown.
# 2. fam04's and fam01's unit-stride forwards (about half and a third of their time paid once per tile, run 382):
#    the same breakdown, as the baseline a ping-pong or persistent form must beat (session62-persistent_unit_stride.patch
#    was 2x slower; profile it too if a build of it with fp32 instantiations only is prepared).
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
OUT="$LOG" KERNEL=strip_grad_weight CASES="hifigan_tf32:real_hifigan_up:tf32" timeout 150 \
  bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_strip_grad_weight.log"
OUT="$LOG" KERNEL=unit_stride_forward CASES="fam04_tf32:fam04_convt1d_k3_65536:tf32 \
fam01_tf32:fam01_convt2d_k3_1024x1024:tf32" timeout 250 bash scripts/ncu_stalls.sh 2>&1 \
  | tee "$LOG/ncu_unit_stride.log"
device_finish
