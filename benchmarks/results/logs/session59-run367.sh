#!/usr/bin/env bash
# Session 59, run 367 (one H200): session 58's prepared third call (ncu stall breakdowns), with additions from run 366.
# Run 366 found the swizzled 16-bit rows form faster on DCGAN / VAE bf16 fwd+bwd (0.840 vs 0.862, 1.262 vs 1.300 ms)
# and slower on U-Net 3D and its block (0.716-0.730 vs 0.675; 1.146-1.223 vs 1.021-1.064, wide spreads). So:
# 1. per-kernel census of bf16 U-Net 3D under swizzle 0 and 1 (which kernel moves);
# 2. ncu of the rows16 kernel in both forms on DCGAN and on U-Net 3D;
# 3. ncu of fam04's TF32 forward on both kernels "auto" weighs there (the mma.sync gather it runs; the unit-stride
#    strip forward, level with it in run 159) and of fam01's strip forward: the weakest TF32 forward rows;
# 4. L2-61's TF32 census (issue 5: where its 5.08 ms fwd+bwd goes today). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
(cd scripts
 for v in 0 1; do
   TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE=$v timeout 60 python3 kernel_breakdown.py real_unet3d_up --precision bf16 \
     --iters 5 --json "$LOG/kernels_unet3d_bf16_swizzle$v.json" > "$LOG/kernels_unet3d_bf16_swizzle$v.log" 2>&1
   echo "swizzle $v"; grep -A6 "^== " "$LOG/kernels_unet3d_bf16_swizzle$v.log" | cut -c1-150
 done
 timeout 60 python3 kernel_breakdown.py l2_61_convt3d_relu_groupnorm --precision tf32 --iters 3 \
   --json "$LOG/kernels_l2_61_tf32.json" > "$LOG/kernels_l2_61_tf32.log" 2>&1
 grep -A14 "^== " "$LOG/kernels_l2_61_tf32.log" | cut -c1-170)
echo "ncu at $(( $(date +%s) - start )) s"
for v in 0 1; do
  TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE=$v OUT="$LOG/ncu_rows16_swizzle$v" KERNEL=rows16 \
    CASES="dcgan_bf16:real_dcgan_up:bf16 unet3d_bf16:real_unet3d_up:bf16" \
    bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_rows16_swizzle$v.log"
done
OUT="$LOG/ncu_fam04" KERNEL=gather CASES="fam04_tf32:fam04_convt1d_k3_65536:tf32" bash scripts/ncu_stalls.sh 2>&1 \
  | tee "$LOG/ncu_fam04.log"
OUT="$LOG/ncu_fam04_strip" KERNEL="strip.*forward_kernel" CASES="fam04_tf32_strip:fam04_convt1d_k3_65536:tf32:igemm_strip" \
  bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_fam04_strip.log"
OUT="$LOG/ncu_fam01" KERNEL="strip.*forward_kernel" CASES="fam01_tf32:fam01_convt2d_k3_1024x1024:tf32" \
  bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_fam01.log"
OUT="$LOG/ncu_gather_bf16" KERNEL=gather_tf32 CASES="dcgan_bf16:real_dcgan_up:bf16" bash scripts/ncu_stalls.sh 2>&1 \
  | tee "$LOG/ncu_gather_bf16.log"
device_finish
