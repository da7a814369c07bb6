#!/usr/bin/env bash
# Session 95, run 507 (one H200; cold or warm). The TMA grad_weight's splits by waves is the default since f75e056
# (run 505's A/B); its probes' test, cut by run 505's time limit, runs here at the default.
# The window grad_weight for more than 64 output channels per group (TCONV_GRAD_WEIGHT_WINDOW_WIDE_OUT=1,
# development, default 0): the per-tap TMA grad_weight's loads are its pass (run 504), each tap's block reading all of
# x and grad_output; the window's chunks of two taps (64 -> 128) read fam06's x 8 times and ~9 lines of grad_output,
# ~7.3 GB against ~12.1 GB, in 64-byte box rows. Predicted (bf16 channels-last pass, if its rate a byte holds): fam06
# 1.931 -> ~1.2 ms, L2-61 0.922 -> ~0.7 (W 32 in segments of 64: half of each x box is past the line).
# 1. the window's tests under the switch (contract, launches: 4 cases x bf16 / fp16), the TMA probes' test;
# 2. kernel breakdowns WIDE_OUT 0 / 1 on fam06 and L2-61 (bf16 channels-last);
# 3. verified rows under WIDE_OUT=1 (fam06, L2-61) with the time left.
source scripts/device_prelude.sh
left 200 && gpu_tests 110 wide_out tests/test_grad_weight_window_gpu.py "wide_out"
left 260 && gpu_tests 60 probes tests/test_grad_weight_tma_gpu.py "probes_say"
breakdowns_ab 420 TCONV_GRAD_WEIGHT_WINDOW_WIDE_OUT "0 1" "grad_weight_(tma|window)|sum_splits" bf16 channels_last \
  fam06_convt2d_k3x5_128x256 l2_61_convt3d_relu_groupnorm
export TCONV_GRAD_WEIGHT_WINDOW_WIDE_OUT=1  # (exported: a prefix assignment's reach into a shell function's children varies)
bench_budget 570 bf16 channels_last fam06_convt2d_k3x5_128x256 l2_61_convt3d_relu_groupnorm
unset TCONV_GRAD_WEIGHT_WINDOW_WIDE_OUT
device_finish
