#!/usr/bin/env bash
# Session 99, run 527 (one H200, cold). Run as
# TCONV_COMMIT=<sha> bash benchmarks/results/logs/session99-run527.sh
# Run 526: both one-tap switches lost (mma forward 0.514 against the FFMA form's 0.405; one-tap grad_input 0.419 against
# the gather's 0.247): their staging issued one scalar global load after another. Now every chunk's (stage's) loads go
# to registers first, each thread's elements affine in the loop index (one base address), issued before the bias run is
# written (forward) or during the previous stage's MMAs (grad_input); grad_output in 16-byte octets where channels-last.
# Predicted: fam13 bf16 CL forward FFMA 0.405 -> ~0.30, mma -> ~0.25; grad_input 0.419 -> ~0.10.
# 1. one-tap tests; 2. fam13 quick timings under the switches (bf16 CL), TF32 CL default; 3. breakdown under both.
source scripts/device_prelude.sh
left 200 && gpu_tests 240 one_tap tests/test_conv_transpose_gpu.py "one_tap"
stem=fam13_convt2d_k3_s5_p1_d2_64x128
for mma in 0 1; do
  for gi in 0 1; do
    left 430 && LAYOUT=channels_last quick_time mma${mma}_gi${gi} $stem bf16 auto TCONV_ONE_TAP_MMA=$mma \
      TCONV_ONE_TAP_GRAD_INPUT=$gi
  done
done | tee "$LOG/fam13_one_tap_switches.log"
left 460 && LAYOUT=channels_last quick_time tf32 $stem tf32 auto | tee -a "$LOG/fam13_one_tap_switches.log"
left 500 && TCONV_ONE_TAP_MMA=1 TCONV_ONE_TAP_GRAD_INPUT=1 breakdowns 545 bf16 channels_last $stem
device_finish
