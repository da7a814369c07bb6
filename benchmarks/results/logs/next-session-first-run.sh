#!/usr/bin/env bash
# Prepared in session 85 for the next session's first GPU call (one H200; rename to sessionNN-runMMM.sh when it runs,
# fix these lines, commit BEFORE the call (the device tool copies the working tree, uncommitted edits included), pass
# TCONV_COMMIT=<literal full sha>, and leave the tree alone until the call has started).
# Session 85 (runs 467-469) gave channels-last 16-bit calls of <= 32 channels a side at unit stride to the unit-stride
# kernel's channels-last form (L1-71 0.328 / 1.074 ms, fam11 0.578 / 2.035, verified) and the 16-bit TMA window to
# wide lines of 64+ channels at 5+ W taps and <= 64 columns. Three edits after its last call were not run on a GPU:
# an empty batch plans as lines (run 469: the batch-0 case died of a division by the zero tile width), the wide-line
# rule's 64-column bound (fam06's forward back on the per-tap boxes), and the window rule's switch tests with the
# unit-stride rule off in their processes. Written after it, off by default: the window grad_weight's line boxes
# (TCONV_GRAD_WEIGHT_WINDOW_LINES=1) for deep calls such as fam02 (its grad_weight 4.464 ms on the igemm kernel).
# 1. GPU tests: the unit-stride tests (the channels-last grid, stores, refusals, plan), every 16-bit window test, the
#    line boxes' switch test;
# 2. quick timing, channels-last bf16: fam02 with the line boxes against without (expected ~1.5 ms fwd+bwd against
#    5.5); breakdowns: fam02 with the line boxes, fam06 (the new rule: per-tap forward, window grad_input);
# 3. verified channels-last bf16 rows: fam06 under the committed rule, then fam01, fam13, fam10 while the call has
#    time.
source scripts/device_prelude.sh
left 300 && gpu_tests 60 unit_stride tests/test_conv_transpose_gpu.py "unit_stride_mma and not grad_weight"
left 360 && gpu_tests 90 window tests/test_gather_tma_gpu.py "window_16bit or window_short_tile"
left 400 && gpu_tests 60 line_boxes tests/test_grad_weight_window_gpu.py "line_boxes"
left 440 && LAYOUT=channels_last quick_time "lines" fam02_convt3d_k3x5x7_16x32x64 bf16 auto \
  TCONV_GRAD_WEIGHT_WINDOW_LINES=1 | tee -a "$LOG/timing.log"
left 450 && LAYOUT=channels_last quick_time "igemm" fam02_convt3d_k3x5x7_16x32x64 bf16 auto | tee -a "$LOG/timing.log"
TCONV_GRAD_WEIGHT_WINDOW_LINES=1 breakdowns 500 bf16 channels_last fam02_convt3d_k3x5x7_16x32x64
breakdowns 500 bf16 channels_last fam06_convt2d_k3x5_128x256
bench_budget 550 bf16 channels_last fam06_convt2d_k3x5_128x256 fam01_convt2d_k3_1024x1024 \
  fam13_convt2d_k3_s5_p1_d2_64x128 fam10_convt3d_k3_s2_p1_d2_16x32x32
device_finish
