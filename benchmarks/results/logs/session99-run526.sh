#!/usr/bin/env bash
# Session 99, run 526 (one H200, cold; the first call of the session). Run as
# TCONV_COMMIT=<sha> bash benchmarks/results/logs/session99-run526.sh
# Written after session 98's device time ran out, so none of it has run on a GPU:
# - the one-tap FFMA forward's setup and staging moved into shared helpers (one_tap_begin, stage_one_tap_chunk): the
#   default kernel for fam13 channels-last, so its tests come first;
# - TCONV_ONE_TAP_MMA=1: the one-tap forward's fp16 / bf16 form on k16 mma.sync (run 524's ncu read the FFMA form at
#   289 M warp instructions, ~2x its loop's, FMA pipe 33 %). Predicted fam13 bf16 CL forward 0.404 -> ~0.20-0.25 ms;
# - TCONV_ONE_TAP_GRAD_INPUT=1: fam13's grad_input on a one-tap mma.sync kernel (each input position reads exactly
#   its taps' outputs). Predicted 0.247 -> ~0.08-0.12 ms, fam13 bf16 CL f+b 0.828 -> ~0.65 (~0.5 with both).
# 1. the one-tap tests (contract, both switch tests, the rule); 2. fam13 bf16 CL quick timings under the switches;
# 3. fam13's kernel breakdown under both, for the per-pass times.
source scripts/device_prelude.sh
left 200 && gpu_tests 240 one_tap tests/test_conv_transpose_gpu.py "one_tap"
stem=fam13_convt2d_k3_s5_p1_d2_64x128
for mma in 0 1; do
  for gi in 0 1; do
    left 460 && LAYOUT=channels_last quick_time mma${mma}_gi${gi} $stem bf16 auto TCONV_ONE_TAP_MMA=$mma \
      TCONV_ONE_TAP_GRAD_INPUT=$gi
  done
done | tee "$LOG/fam13_one_tap_switches.log"
left 500 && TCONV_ONE_TAP_MMA=1 TCONV_ONE_TAP_GRAD_INPUT=1 breakdowns 545 bf16 channels_last $stem
device_finish
