#!/usr/bin/env bash
# Session 96, run 510 (one H200, cold): prepared in session 95 as next-session-first-run.sh.
# Committed before the call; TCONV_COMMIT=<sha> passed on the command line.
# The window grad_weight's split form is the default at n64 since 988c0a4 (runs 508-509: fam06's pass 1.843 -> 0.743
# ms); after run 509 its plan learned to fall back to alternating chunks, and TCONV_GRAD_WEIGHT_WINDOW_SPLIT_TILES=2
# (development, written after the device time, not run) splits at n32 too (chunks of 8, 12 or 16 tiles).
# 1. the window grad_weight's tests at the new default (contract, line boxes, rings of 4 / 12 stages and 1 / 4
#    producers: their n64 cases now run the split form) and the n32 split test under 2;
# 2. kernel breakdowns SPLIT_TILES 1 / 2 on the n32 window grad_weights: L1-68 (75 tiles), fam02 (53), L1-71 (5),
#    fam11 (11), bf16 channels-last. Predicted: L1-68 and fam02 gain (x read half as often by twice-as-long chunks);
#    L1-71's 5 tiles are one chunk either way, and the split form computes 8 tiles a stage (3 past the call's) against
#    the alternating form's 5 on alternate stages: level where loads bound it, slower where the MMAs do (then n32
#    split needs a rule that keeps whole-call chunks alternating).
# 3. next-session-second-run.sh (warm): verified rows at the defaults.
source scripts/device_prelude.sh
left 330 && gpu_tests 260 window tests/test_grad_weight_window_gpu.py \
  "meets_the_contract or line_boxes or narrow_split or wide_out"
left 450 && gpu_tests 120 window_rings tests/test_grad_weight_window_gpu.py "stages_switch or producers_switch"
breakdowns_ab 585 TCONV_GRAD_WEIGHT_WINDOW_SPLIT_TILES "1 2" "grad_weight_window" bf16 channels_last \
  l1_68_convt3d_square_input_asym_kernel fam02_convt3d_k3x5x7_16x32x64 l1_71_convt2d_asym_input_square_kernel \
  fam11_convt2d_k3x7_p1x3_512x1024
device_finish
