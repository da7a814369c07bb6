#!/usr/bin/env bash
# Session 60, run 375 (one H200; the session's last device time): ncu of what the next changes would aim at.
# fam13's TF32 forward on the wgmma gather ("auto", 0.80 ms) against the mma.sync one ("igemm_mma", 0.67; runs
# 371-374: not the 256-column tile, TCONV_GATHER_WIDEST=0 was level), and HiFi-GAN's TF32 strip grad_weight (3.85 ms,
# the largest pass of the weakest TF32 row: fwd+bwd 1.18x eager in run 358). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
sed -i 's/timeout 200 ncu/timeout 75 ncu/' scripts/ncu_stalls.sh
OUT="$LOG/ncu_fam13" KERNEL=gather_tf32 CASES="fam13_auto:fam13_convt2d_k3_s5_p1_d2_64x128:tf32
fam13_mma:fam13_convt2d_k3_s5_p1_d2_64x128:tf32:igemm_mma" bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_fam13.log"
OUT="$LOG/ncu_hifigan" KERNEL="strip_grad_weight" CASES="hifigan_tf32:real_hifigan_up:tf32" \
  bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_hifigan.log"
device_finish
