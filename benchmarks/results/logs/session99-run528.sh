#!/usr/bin/env bash
# Session 99, run 528 (one H200, cold). Run as
# TCONV_COMMIT=<sha> bash benchmarks/results/logs/session99-run528.sh
# Run 527: with each stage's loads issued together, the one-tap grad_input ran fam13's pass at 0.091 ms (gather 0.247;
# fwd+bwd 0.800 -> 0.651), now "auto"'s by default; the FFMA forward 0.405 -> 0.372, its mma form 0.453. The mma form
# now writes each tap's outputs through shared memory, a position's 64 channels as one 128-byte line (its fragments
# wrote 4 bytes a thread at 8 positions a warp instruction). Predicted mma form ~0.25-0.30 ms.
# 1. one-tap tests; 2. fam13 bf16 CL forward under TCONV_ONE_TAP_MMA 0 / 1 and the breakdown under 1; 3. verified rows
# at the default: fam13 bf16 CL, TF32 CL; then bf16 CL under TCONV_ONE_TAP_MMA=1 if time is left.
source scripts/device_prelude.sh
left 200 && gpu_tests 150 one_tap tests/test_conv_transpose_gpu.py "one_tap"
stem=fam13_convt2d_k3_s5_p1_d2_64x128
for mma in 0 1; do
  left 330 && LAYOUT=channels_last quick_time mma$mma $stem bf16 auto TCONV_ONE_TAP_MMA=$mma
done | tee "$LOG/fam13_mma.log"
left 350 && TCONV_ONE_TAP_MMA=1 breakdowns 390 bf16 channels_last $stem
bench_budget 450 bf16 channels_last $stem && mv "$LOG/bench_channels_last.log" "$LOG/bench_channels_last_bf16.log"
bench_budget 510 tf32 channels_last $stem && mv "$LOG/bench_channels_last.log" "$LOG/bench_channels_last_tf32.log"
TCONV_ONE_TAP_MMA=1 bench_budget 570 bf16 channels_last $stem
device_finish
