#!/usr/bin/env bash
# Session 107, run 547 (one H100 or H200, cold). Run 546's source counters of L2-61's TF32 ring kernel (H100, 1.41 ms,
# tensor pipe 37 %, issue slots 56 % busy): the consumer warps issue ~200 instructions a unit for 8 wgmmas, and two
# thirds of the samples sit on that stream (uniform datapath 15 %, the fragments' selects and moves), not on the
# wgmma wait (7.5 %). This commit builds the copies' descriptor once (a unit adds 16-byte units to its address field)
# and loads the fp32 fragments without selects where the row lies inside (every 5-D map row): the same MMAs on the
# same operands, so the same bits.
# 1. The shifted-x tests: all TF32 ones (217 in run 544), bf16 (contiguous and misaligned, igemm) and fp16
#    (row_padded, igemm), whose 16-bit kernels take the descriptor change too. Predicted: pass.
# 2. Kernel breakdowns: L2-61 and fam03 TF32 (the ring; run 543 on H100: 1.414 / 2.592 ms), fam06 TF32 (the measured
#    kernel at unit 32, kernel W 5; run 544 on H200: 2.007), L2-61 bf16 (16-bit shifted-x). Predicted: the ring
#    kernels 10-20 % faster (a third fewer consumer instructions a unit, if their issue bounds it), fam06 less (its
#    flat rows take the fast path only where inside), bf16 within a few %.
source scripts/device_prelude.sh
left 330 && gpu_tests 190 shifted_x_tf32 tests/test_conv_transpose_gpu.py "shifted_x and not (bf16 or fp16 or fp32)"
left 400 && gpu_tests 70 shifted_x_16bit tests/test_conv_transpose_gpu.py \
  "shifted_x and ((bf16 and (contiguous or misaligned)) or (fp16 and row_padded)) and igemm"
breakdowns 560 tf32 contiguous l2_61_convt3d_relu_groupnorm fam03_convt3d_k3_64x64x64 fam06_convt2d_k3x5_128x256
breakdowns 585 bf16 contiguous l2_61_convt3d_relu_groupnorm
device_finish
