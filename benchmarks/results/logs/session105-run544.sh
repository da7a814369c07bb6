#!/usr/bin/env bash
# Session 105, run 544 (the machine warm after run 543; prepared in session 104, item 2 added in session 105).
# Committed before the call; run with TCONV_COMMIT=<full sha>.
# 1. 16-bit x per position on the warp-specialized unit-stride forward (TCONV_UNIT_STRIDE_SPECIALIZED 1 -> 2; tested
#    in run 537, never timed), bf16 quick timing on the calls that load x per position: L1-68 and fam04. Predicted:
#    smaller than x pairs' gain (fam06 -12 %, L2-61 -3 % of the forward), 0 to -5 % of the forward: per position the
#    producer issues twice the loads a stage for the same MMA work, so it is likelier to be the limit.
# 2. The TF32 shifted-x grad_weight's unit and sliding on L2-61 and fam03 (both run it swapped: 64 x channels as
#    the rows, unit 32, 4 stages of 51.2 KB, not sliding; L2-61's kernel 2.03 ms = 114 TFLOP/s). Counted per unit
#    of 32 positions: 32.6 KB of TMA boxes (3 x rows 27.6 KB, the grad_output window 5 KB), ~7.2 GB a pass, 3.6 TB/s
#    out of L2 at 2.03 ms; at unit 16 (6 stages, sliding by rule) a steady unit loads one row: ~0.53 KB a position
#    against 1.02, for twice the units. Breakdowns under TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT 0 / 16 and, at unit 32,
#    TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE=1 (one unit of lookahead). Predicted: unit 16 faster by 10-30 % if L2
#    delivery bounds the kernel, slower by ~20 % if its per-unit steps do (run 212's TF32 count: ~8 positions a
#    unit); sliding at 4 stages slower (run 436's 64-channel rows). The swap rule may not hold at unit 16: the
#    breakdown names the kernel.
# 3. Verified TF32 rows (contiguous) in what is left: L2-61 and fam06 first (the persistent default as the first run
#    decides it), then the rows older than session 100's kernels (L1-71, L1-73, L1-72, fam02, fam05, fam11, fam08,
#    fam09, fam10, fam12). Predicted: within 3 % of their newest rows where no default changed since.
source scripts/device_prelude.sh
for problem in l1_68_convt3d_square_input_asym_kernel fam04_convt1d_k3_65536; do
  for v in 1 2; do left 200 && quick_time "specialized_$v" $problem bf16 auto TCONV_UNIT_STRIDE_SPECIALIZED=$v; done
done
for problem in l2_61_convt3d_relu_groupnorm fam03_convt3d_k3_64x64x64; do
  breakdowns_ab 330 TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT "0 16" "grad_weight|total" tf32 contiguous $problem
  breakdowns_ab 330 TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE "1" "grad_weight|total" tf32 contiguous $problem
done
bench_budget 585 tf32 contiguous l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256 \
  l1_71_convt2d_asym_input_square_kernel l1_73_convt3d_strided_padded_grouped \
  l1_72_convt3d_asym_kernel_strided_padded_grouped fam02_convt3d_k3x5x7_16x32x64 fam05_convt2d_k3x7_512x512 \
  fam11_convt2d_k3x7_p1x3_512x1024 fam08_convt1d_k5_d3_131072 fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 \
  fam10_convt3d_k3_s2_p1_d2_16x32x32 fam12_convt1d_k3_s2_p1_d2_131072
device_finish
