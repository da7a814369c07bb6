#!/usr/bin/env bash
# Prepared in session 57 for the next session's second GPU call (rename to sessionNN-runMMM.sh when it runs).
# bf16 DCGAN and HiFi-GAN fwd+bwd are far below eager (0.36x and ~0.7x; run 360 and a96b82f's suite), and HiFi-GAN's
# bf16 backward (~6.2 ms) is slower than its TF32 one (~5.9). 1. Their bf16 kernel census (where the backward time
# goes). 2. A same-build A/B of TCONV_GRAD_WEIGHT_WGMMA_ANY_DIMS=1: the wgmma grad_weight kernel for 1D/2D shapes,
# which "auto" keeps on mma.sync from run 34's TF32-only measurements (DCGAN 1.17 vs 1.08 ms, HiFi-GAN 12.4 vs 11.2,
# before the ordered split-K); in bf16 the two kernels' MMA rates differ, and it was never timed there. Also on
# the 2D/1D suite rows whose bf16 fwd+bwd is weakest (fam01, fam06, L1-71). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
(cd scripts
 for stem in real_dcgan_up real_hifigan_up; do
   for switch in 0 1; do
     TCONV_GRAD_WEIGHT_WGMMA_ANY_DIMS=$switch timeout 40 python3 kernel_breakdown.py $stem --precision bf16 --iters 1 \
       --json "$LOG/kernels_${stem}_bf16_any$switch.json" > "$LOG/kernels_${stem}_bf16_any$switch.log" 2>&1
     echo "ANY_DIMS=$switch"; grep -A6 "^== " "$LOG/kernels_${stem}_bf16_any$switch.log" | cut -c1-150
   done
 done)
OUT="$LOG" SWITCH=TCONV_GRAD_WEIGHT_WGMMA_ANY_DIMS VALUES="1 0" ROUNDS=2 PRECISIONS=bf16 timeout 240 \
  bash scripts/device_switch_ab.sh real_dcgan_up real_hifigan_up fam01_convt2d_k3_1024x1024 \
  fam06_convt2d_k3x5_128x256 l1_71_convt2d_asym_input_square_kernel 2>&1 | cut -c1-170 | tee "$LOG/timing.log"
device_finish
