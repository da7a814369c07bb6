#!/usr/bin/env bash
# Session 106, run 545 (written after run 544, one H100 or H200, cold). Run 544 (H200): the ring's racecheck clean,
# 216 of 217 TF32 shifted-x tests passed (where_planned named the measured kernel's unit-32 template, which the ring's
# does not carry), fam06 / fam05's grad_weight 2.007 -> 2.032 / 1.916 -> 1.921 ms under the ring, so this commit
# takes it by rule only where the kernel has more than one D tap.
# 1. The ring test (1, 0, and the rule: the 3D cases ring, the 2D ones not, same bits) and where_planned. Predicted:
#    pass.
# 2. Verified TF32 rows of the 3D problems the rule reaches (L1-68, fam02, fam07, real_unet3d_up) in what is left.
source scripts/device_prelude.sh
left 300 && gpu_tests 200 ring tests/test_conv_transpose_gpu.py "shifted_x_ring_agrees_bitwise or shifted_x_where_planned"
bench_budget 430 tf32 contiguous l1_68_convt3d_square_input_asym_kernel fam02_convt3d_k3x5x7_16x32x64 \
  fam07_convt3d_k3_96x96x96 real_unet3d_up
device_finish
