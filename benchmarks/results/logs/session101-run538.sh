#!/usr/bin/env bash
# Session 101, run 538 (one H200); run with TCONV_COMMIT=<full sha of the commit it runs at, typed out>.
# The defaults after runs 536-537: the one-tap runs form for W-innermost outputs and the warp-specialized wide-rows
# unit-stride forward. 1. the one-tap tests (run 537's were cut by their time limit); 2. fam04 (1D, C 128 -> 128, the
# other wide-rows shape of the suite) under TCONV_UNIT_STRIDE_SPECIALIZED=0 / 1; 3. verified TF32 rows of L2-61,
# fam06 and fam04; 4. ncu of L2-61's specialized forward conv (what limits it at 0.884 ms).
source scripts/device_prelude.sh
left 200 && gpu_tests 190 one_tap tests/test_conv_transpose_gpu.py "one_tap"
for v in 0 1; do left 350 && quick_time "spec_$v" fam04_convt1d_k3_65536 tf32 auto TCONV_UNIT_STRIDE_SPECIALIZED=$v; done
bench_budget 470 tf32 contiguous l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256 fam04_convt1d_k3_65536
ncu_kernel 590 l2_61_tf32_specialized l2_61_convt3d_relu_groupnorm tf32 strip_unit_stride_forward
device_finish
