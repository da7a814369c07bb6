#!/usr/bin/env bash
# Prepared in session 58 for the next session (one H200; rename to sessionNN-runMMM.sh when it runs): where bf16
# DCGAN's time goes now that its grad_weight is the 16-bit rows kernel (run 363: fwd+bwd 0.865 ms = gathers 0.525 for
# two + grad_weight 0.309, against eager's 0.559). Nsight Compute stall breakdowns (scripts/ncu_stalls.sh: tensor
# pipe, L2 bytes, warp stalls) of the rows16 kernel in both x forms (TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE 0 and 1) and of
# the bf16 256-column gather kernel (the forward's and grad_input's, first launch). Then the TF32 unit-stride
# forwards that run at 130-155 TFLOP/s (run 358): fam04's (1D, C 128 -> 128, k3: the mma.sync gather in run 314's
# census) and fam01's (2D k3, C 64 -> 64: the unit-stride strip forward), whose rows are the suite's weakest
# forwards (1.26-1.43x eager with fam05 and fam06). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
C="dcgan_bf16:real_dcgan_up:bf16"
for v in 0 1; do
  TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE=$v OUT="$LOG/ncu_rows16_swizzle$v" KERNEL=rows16 CASES="$C" \
    bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_rows16_swizzle$v.log"
done
OUT="$LOG/ncu_gather" KERNEL=gather_tf32 CASES="$C" bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_gather.log"
OUT="$LOG/ncu_fam04" KERNEL=gather CASES="fam04_tf32:fam04_convt1d_k3_65536:tf32" bash scripts/ncu_stalls.sh 2>&1 \
  | tee "$LOG/ncu_fam04.log"
OUT="$LOG/ncu_fam01" KERNEL="strip.*forward_kernel" CASES="fam01_tf32:fam01_convt2d_k3_1024x1024:tf32" \
  bash scripts/ncu_stalls.sh 2>&1 \
  | tee "$LOG/ncu_fam01.log"
device_finish
