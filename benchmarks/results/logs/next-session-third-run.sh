#!/usr/bin/env bash
# Prepared in session 107 as the next session's first call; session 108 had no device and moved it here, after
# next-session-first-run.sh (which now runs the ring's default tests first). One H100 or H200; rename to
# sessionNNN-runMMM.sh when it runs, commit BEFORE the call, pass TCONV_COMMIT=<full sha, typed out>.
# 1. The rest of the TF32 shifted-x tests (run 547's time limit cut the last 2). Predicted: pass.
# 2. The ring on 2D rows now that its consumers are cheaper (runs 547-548): fam06 and fam05 TF32 grad_weight kernel,
#    TCONV_GRAD_WEIGHT_SHIFTED_X_RING 0 / 1 (run 544, H200, before: +1.2 % / +0.3 % under the ring). Predicted: within
#    +-2 %; the rule reaches 2D only if both gain.
# 3. 16-bit x per position on the warp-specialized unit-stride forward (TCONV_UNIT_STRIDE_SPECIALIZED 1 -> 2; tested in
#    run 537, never timed): bf16 L1-68 and fam04 quick timing. Predicted: 0 to -5 % of the forward.
# 4. Verified TF32 rows in what is left (H200 rows for the suite estimate): L2-61, fam03, L1-68, fam02, fam07.
source scripts/device_prelude.sh
left 330 && gpu_tests 130 shifted_x_tf32 tests/test_conv_transpose_gpu.py \
  "shifted_x and not (bf16 or fp16 or fp32 or ring or where_planned)"
for problem in fam06_convt2d_k3x5_128x256 fam05_convt2d_k3x7_512x512; do
  breakdowns_ab 500 TCONV_GRAD_WEIGHT_SHIFTED_X_RING "0 1" "shifted_x|total" tf32 contiguous $problem
done
for problem in l1_68_convt3d_square_input_asym_kernel fam04_convt1d_k3_65536; do
  for v in 1 2; do left 540 && quick_time "specialized_$v" $problem bf16 auto TCONV_UNIT_STRIDE_SPECIALIZED=$v; done
done
bench_budget 590 tf32 contiguous l2_61_convt3d_relu_groupnorm fam03_convt3d_k3_64x64x64 \
  l1_68_convt3d_square_input_asym_kernel fam02_convt3d_k3x5x7_16x32x64 fam07_convt3d_k3_96x96x96
device_finish
