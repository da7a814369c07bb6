#!/usr/bin/env bash
# Session 100, run 535 (one H200, cold; ~355 s of device time left, ~60 s of it the lease's start: ends by ~280 s).
# Run as TCONV_COMMIT=<full sha, typed out> bash benchmarks/results/logs/session100-run535.sh
# The one-tap forward's lines form (TCONV_ONE_TAP_LINES=1, development, default 0): contiguous (W-innermost) outputs
# written with lanes along the output line (the bias run coalesced; each tap's 32 positions a warp store, s apart)
# instead of 4 channels a thread a position (run 522: 2.27 ms bf16, every store its own sector).
# Predicted fam13 contiguous forward: bf16 0.72 (gather) -> ~0.25-0.35 ms, TF32 0.67 (W fold) -> ~0.35-0.45.
# 1. the switch test (every one-tap case, every mode, contiguous and strided, under 1; "auto"'s choice under 1 / 0)
#    and the channels-last one-tap contract cases (the kernels' other paths after the change);
# 2. fam13 contiguous forward and fwd+bwd under 0 / 1, bf16 and TF32 (quick timing, one build).
source scripts/device_prelude.sh
left 120 && gpu_tests 85 one_tap_lines tests/test_conv_transpose_gpu.py "one_tap_lines"
left 200 && gpu_tests 40 one_tap_cl tests/test_conv_transpose_gpu.py "one_tap_meets and channels_last"
stem=fam13_convt2d_k3_s5_p1_d2_64x128
for prec in bf16 tf32; do
  for v in 0 1; do left 265 && quick_time "lines_$v" $stem $prec auto TCONV_ONE_TAP_LINES=$v; done
done
device_finish
