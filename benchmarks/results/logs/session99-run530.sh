#!/usr/bin/env bash
# Session 99, run 530 (one H200, cold; ~570 s of device time left, so it ends by ~450 s). Run as
# TCONV_COMMIT=<full sha, typed out> bash benchmarks/results/logs/session99-run530.sh
# Run 529: the one-tap grad_weight ran fam13's pass at 0.097 ms (+0.008 summing splits) against 0.183: now the default,
# with the one-tap mma forward and grad_input. The rule's test now counts either forward kernel's name.
# 1. one-tap tests at the defaults; 2. fam13's breakdown at the defaults; 3. verified rows at the defaults: fam13 bf16
# CL, fp16 CL.
source scripts/device_prelude.sh
left 200 && gpu_tests 200 one_tap tests/test_conv_transpose_gpu.py "one_tap"
stem=fam13_convt2d_k3_s5_p1_d2_64x128
left 350 && breakdowns 390 bf16 channels_last $stem
bench_budget 410 bf16 channels_last $stem && mv "$LOG/bench_channels_last.log" "$LOG/bench_channels_last_bf16.log"
bench_budget 455 fp16 channels_last $stem
device_finish
