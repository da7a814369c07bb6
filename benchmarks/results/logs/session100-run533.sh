#!/usr/bin/env bash
# Session 100, run 533 (one H200, cold; ~980 s of device time left, so it ends by ~570 s). Run as
# TCONV_COMMIT=<full sha, typed out> bash benchmarks/results/logs/session100-run533.sh
# Run 532's source counters put half of fam13's one-tap forward stall samples in the bias run's loop (r reduced mod s
# by repeated subtraction, 8-byte stores). Now one compare a step and 16-byte pieces (16-bit channels-last).
# Predicted: fam13 forward bf16 CL 0.300 -> ~0.19-0.22 ms, TF32 CL 0.385 -> ~0.28-0.31.
# 1. one-tap tests (every one-tap kernel, contract, 3 layouts); 2. fam13's kernels (bf16 CL); 3. verified rows fam13
# bf16 CL and TF32 CL; 4. the exact-fp32 suite's other 11 rows (run 532 measured the first 11).
source scripts/device_prelude.sh
left 200 && gpu_tests 150 one_tap tests/test_conv_transpose_gpu.py "one_tap"
stem=fam13_convt2d_k3_s5_p1_d2_64x128
left 290 && breakdowns 300 bf16 channels_last $stem
bench_budget 335 bf16 channels_last $stem && mv "$LOG/bench_channels_last.log" "$LOG/bench_channels_last_bf16.log"
bench_budget 370 tf32 channels_last $stem
bench_budget 570 fp32 contiguous fam07_convt3d_k3_96x96x96 fam08_convt1d_k5_d3_131072 \
  fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 fam10_convt3d_k3_s2_p1_d2_16x32x32 fam11_convt2d_k3x7_p1x3_512x1024 \
  fam12_convt1d_k3_s2_p1_d2_131072 $stem real_unet3d_up real_dcgan_up real_hifigan_up real_vae_up
device_finish
