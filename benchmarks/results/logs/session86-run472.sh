#!/usr/bin/env bash
# Session 86's third GPU call (one H200, ~550 s of device time left: the command ends by ~400 s): the window
# grad_weight for up to 128 tiles, which now takes L1-68's channels-last 16-bit grad_weight (75 tiles; the igemm
# grad_weight's before, ~17 of 24.1 ms of kernels per fwd+bwd). Expected (fam02's 1.07 us per stage of 4 tiles in run
# 471, 6554 stages of 6 tiles a block here): grad_weight ~8 ms, fwd+bwd ~15 ms against ~24.
# 1. quick timing, L1-68 channels-last bf16: "auto" against TCONV_GRAD_WEIGHT_WINDOW=0 (the igemm grad_weight);
# 2. the deep cases' test (bf16), the new L1-68-like case of 75 tiles among them.
source scripts/device_prelude.sh
left 290 && LAYOUT=channels_last quick_time "window" l1_68_convt3d_square_input_asym_kernel bf16 auto \
  | tee -a "$LOG/timing.log"
left 335 && LAYOUT=channels_last quick_time "igemm" l1_68_convt3d_square_input_asym_kernel bf16 auto \
  TCONV_GRAD_WEIGHT_WINDOW=0 | tee -a "$LOG/timing.log"
left 350 && gpu_tests 50 deep tests/test_grad_weight_window_gpu.py "bf16 and line_boxes"
device_finish
