#!/usr/bin/env bash
# Prepared in session 104 for the call after next-session-first-run.sh (the machine warm; rename to sessionNN-runMMM.sh
# when it runs, commit BEFORE the call); run with TCONV_COMMIT=<full sha, typed out>. Never ran.
# 1. 16-bit x per position on the warp-specialized unit-stride forward (TCONV_UNIT_STRIDE_SPECIALIZED 1 -> 2; tested
#    in run 537, never timed), bf16 quick timing on the calls that load x per position: L1-68 and fam04. Predicted:
#    smaller than x pairs' gain (fam06 -12 %, L2-61 -3 % of the forward), 0 to -5 % of the forward: per position the
#    producer issues twice the loads a stage for the same MMA work, so it is likelier to be the limit.
# 2. Verified TF32 rows (contiguous) in what is left: L2-61 and fam06 first (the persistent default as the first run
#    decides it), then the rows older than session 100's kernels (L1-71, L1-73, L1-72, fam02, fam05, fam11, fam08,
#    fam09, fam10, fam12). Predicted: within 3 % of their newest rows where no default changed since.
source scripts/device_prelude.sh
for problem in l1_68_convt3d_square_input_asym_kernel fam04_convt1d_k3_65536; do
  for v in 1 2; do left 200 && quick_time "specialized_$v" $problem bf16 auto TCONV_UNIT_STRIDE_SPECIALIZED=$v; done
done
bench_budget 585 tf32 contiguous l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256 \
  l1_71_convt2d_asym_input_square_kernel l1_73_convt3d_strided_padded_grouped \
  l1_72_convt3d_asym_kernel_strided_padded_grouped fam02_convt3d_k3x5x7_16x32x64 fam05_convt2d_k3x7_512x512 \
  fam11_convt2d_k3x7_p1x3_512x1024 fam08_convt1d_k5_d3_131072 fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 \
  fam10_convt3d_k3_s2_p1_d2_16x32x32 fam12_convt1d_k3_s2_p1_d2_131072
device_finish
