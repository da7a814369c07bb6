#!/usr/bin/env bash
# Session 95, run 508 (one H200, cold; the session's last ~600 s of device time). The window grad_weight's split form
# (TCONV_GRAD_WEIGHT_WINDOW_SPLIT_TILES=1, development, default 0): chunks of 6 or 8 m64 tiles at 64 input channels,
# both MMA warpgroups on every stage with half of the tiles each (run 507's chunks of 3 tiles read fam06's x ten
# times). Bytes a unit of 64 positions over all chunks: fam06 290816 -> 137216 (chunks of 8), L2-61 451584 -> 225792
# (of 6). Predicted passes (bf16 channels-last; run 507: fam06 1.841, L2-61 0.841 ms): ~0.9-1.1 and ~0.45-0.6.
# 1. the split form's test (contract and its launches, 6 cases x bf16 / fp16) and the window's contract test in bf16
#    (the alternating form's code was re-templated);
# 2. kernel breakdowns SPLIT_TILES 0 / 1 on fam06 and L2-61 (bf16 channels-last);
# 3. verified rows under SPLIT_TILES=1 with the time left.
source scripts/device_prelude.sh
left 230 && gpu_tests 100 split tests/test_grad_weight_window_gpu.py "split_tiles"
left 300 && gpu_tests 70 window_contract tests/test_grad_weight_window_gpu.py "meets_the_contract and bf16"
breakdowns_ab 420 TCONV_GRAD_WEIGHT_WINDOW_SPLIT_TILES "0 1" "grad_weight_(tma|window)|sum_splits" bf16 \
  channels_last fam06_convt2d_k3x5_128x256 l2_61_convt3d_relu_groupnorm
export TCONV_GRAD_WEIGHT_WINDOW_SPLIT_TILES=1  # (exported: a prefix assignment's reach into a shell function's children varies)
bench_budget 560 bf16 channels_last fam06_convt2d_k3x5_128x256 l2_61_convt3d_relu_groupnorm
unset TCONV_GRAD_WEIGHT_WINDOW_SPLIT_TILES
device_finish
