#!/usr/bin/env bash
# Session 84, run 464 (one H200): prepared in session 83 as the next session's first GPU call.
# Tests of the window grad_weight at torch level, then breakdowns of three channels-last bf16 problems.
#
# Session 83 (runs 460-463): the window grad_weight for channels-last 16-bit data (<= 64 channels a side, W stride 1)
# by default; run 463 checked it standalone (22 of 22 against float64); its torch-level tests have not run (run 462's
# hung on a 2-stage plan, fixed since). Quick timings (run 462), fwd+bwd ms: L1-71 3.305 -> 1.826, fam11 6.034 ->
# 2.718, fam07 15.774 -> 13.219, fam05 5.415 -> 3.818, fam01 10.047 -> 7.850.
# 1. tests: the window grad_weight's contract (bf16; fp16 if time), its 64-channel rule, the per-tap TMA
#    grad_weight's contract under its switch (now with the window off), the packed-taps grid's channels-last bf16 cases
#    (3D, groups, partial tiles: the window takes their grad_weight now);
# 2. kernel breakdowns (channels-last bf16): L1-71's fwd+bwd (the window grad_weight's share), fam13's and fam09's
#    (their forwards run 4-7x their contiguous ones: which kernels).
source scripts/device_prelude.sh
left 400 && gpu_tests 150 gw_window tests/test_grad_weight_window_gpu.py "meets_the_contract and bf16"
left 420 && gpu_tests 50 gw_window_wide tests/test_grad_weight_window_gpu.py "not_under_1"
left 440 && gpu_tests 60 gw_tma tests/test_grad_weight_tma_gpu.py "contract and bf16"
left 470 && gpu_tests 50 packed_taps tests/test_conv_transpose_gpu.py "packed_taps and channels_last and bf16"
for problem in l1_71_convt2d_asym_input_square_kernel fam13_convt2d_k3_s5_p1_d2_64x128 \
    fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256; do
  left 550 && timeout 30 python3 scripts/kernel_breakdown.py "$problem" --precision bf16 --layout channels_last \
    --iters 2 2>&1 | grep -v Warn >> "$LOG/breakdown.log"
done
head -c 4000 "$LOG/breakdown.log"
left 520 && gpu_tests 60 gw_window_fp16 tests/test_grad_weight_window_gpu.py "meets_the_contract and fp16"
device_finish
