#!/usr/bin/env bash
# Session 110's second call (run 552), one H100 or H200, cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run>.
# Run 551 (H100, ab39c4c): the producer-warpgroup statistics (staged_group_stats) passed their 74 tests but cost the
# L2-61 TF32 conv kernel 0.883 -> 1.114 ms (+0.231, the pass it replaces 0.131): forward 1.268 -> 1.377 ms, bf16
# 0.765 -> 0.925. Predicted ~1.5 us a tile of producer work hidden behind the store; measured ~11.7 us a tile more.
# 1. Source counters of that kernel (TCONV_CONV_STORE_STATISTICS=1): where the producer's time goes (its two passes,
#    the barrier, the store beside it). Expected: the producer's passes issue-bound on 4 warps (~6000 instructions a
#    thread), which would say the work must spread over more threads or overlap the next tile's MMAs.
# 2. The TF32 shifted-x tests run 547's limit cut (session 107's third-run item 1). Predicted: pass.
# 3. fam06 TF32 grad_weight kernel, TCONV_GRAD_WEIGHT_SHIFTED_X_RING 0 / 1 (session 107's item 2). Predicted: +-2 %.
source scripts/device_prelude.sh
end=${END_S:-500}
export TCONV_CONV_STORE_STATISTICS=1
ncu_source_kernel $(( end - 60 )) stats_tf32 l2_61_convt3d_relu_groupnorm tf32 contiguous unit_stride_forward_kernel
unset TCONV_CONV_STORE_STATISTICS
left $(( end - 140 )) && gpu_tests 130 shifted_x_tf32 tests/test_conv_transpose_gpu.py \
  "shifted_x and not (bf16 or fp16 or fp32 or ring or where_planned)"
breakdowns_ab $end TCONV_GRAD_WEIGHT_SHIFTED_X_RING "0 1" "shifted_x|total" tf32 contiguous fam06_convt2d_k3x5_128x256
device_finish
