#!/usr/bin/env bash
# Prepared in session 101 for the next session's first GPU call (one H200, cold; rename to sessionNN-runMMM.sh when it
# runs, fix these lines, commit BEFORE the call, pass TCONV_COMMIT=<full sha, typed out>).
# 0. The specialized form's switch test in its 1 / 2 / 0 form (written after session 101's device time).
# 1. Source counters of L2-61's TF32 forward conv on the warp-specialized wide-rows kernel (run 538: 886.75 us, tensor
#    pipe 65.8 %, long scoreboard 47.5 % of warp cycles): do the MMA warpgroups wait on full[] (the producer warpgroup
#    too slow: x is prefetched two stages ahead in registers; a second producer warpgroup does not compile, see
#    igemm_config.h StripUnitStrideSpecialized), or on their own wgmma waits and the per-block fill and store (then a
#    persistent form whose producer fills the next tile during the store)?
# 2. The TF32 suite's first 11 rows (contiguous; its last full run predates sessions 97-101's kernels); the other 11
#    in the next call.
source scripts/device_prelude.sh
left 200 && gpu_tests 90 specialized tests/test_conv_transpose_gpu.py "unit_stride_specialized_switch"
ncu_source_kernel 330 l2_61_tf32_specialized l2_61_convt3d_relu_groupnorm tf32 contiguous strip_unit_stride_forward
bench_budget 590 tf32 contiguous l1_68_convt3d_square_input_asym_kernel l1_73_convt3d_strided_padded_grouped \
  l1_71_convt2d_asym_input_square_kernel l1_72_convt3d_asym_kernel_strided_padded_grouped l2_61_convt3d_relu_groupnorm \
  fam01_convt2d_k3_1024x1024 fam02_convt3d_k3x5x7_16x32x64 fam03_convt3d_k3_64x64x64 fam04_convt1d_k3_65536 \
  fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256
device_finish
