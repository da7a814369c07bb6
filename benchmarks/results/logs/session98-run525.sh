#!/usr/bin/env bash
# Session 98, run 525 (one H200, cold; ~300 s of device time left, so short). Run as
# TCONV_COMMIT=<sha> bash benchmarks/results/logs/session98-run525.sh
# Run 524's ncu of the one-tap kernel (fam13 bf16 channels-last, 0.461 ms): 289 M warp instructions, issue slots 60 %
# busy, FMA pipe 33 %: ~3550 instructions a warp against ~1660 of FFMA loop in a tapped block. The block-uniform
# indices (row, tile, the D and H taps) were 64-bit divisions in every thread (~1100 instructions), the weight offsets
# 64-bit; both are now 32-bit. Predicted ~0.33-0.38 ms (a third fewer instructions at the same issue rate).
# 1. the one-tap tests at this commit; 2. fam13 channels-last quick timings, bf16 and TF32; 3. a verified bf16 row if
# time is left.
source scripts/device_prelude.sh
left 200 && gpu_tests 60 one_tap tests/test_conv_transpose_gpu.py "one_tap"
stem=fam13_convt2d_k3_s5_p1_d2_64x128
for prec in bf16 tf32; do
  left 240 && LAYOUT=channels_last quick_time cl $stem $prec auto
done | tee "$LOG/fam13_one_tap.log"
bench_budget 285 bf16 channels_last $stem
device_finish
