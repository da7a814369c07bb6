#!/usr/bin/env bash
# Session 82, run 458 (one H200, the session's second device call); TCONV_COMMIT is this commit's full sha, passed by
# the caller.
# Run 457 (H200, bf16 channels-last, forward / fwd+bwd ms, per-tap "auto" -> "igemm_tma_window" in every pass):
# L1-71 1.092 / 5.446 -> 0.891 / 3.595, L1-68 8.896 / 38.948 -> 3.075 / 24.109, fam03 1.711 / 7.594 -> 1.140 / 5.451.
# Since then "auto" runs 16-bit sources read in place on the window, forward and grad_input, wherever a phase has 3 or
# more W taps (TmaWindow16BitAutoRule; TCONV_TMA_WINDOW_16BIT: 0 off, 1 forward only, 2 unset both). Untested on a GPU:
# the 16-bit window itself (run 457's tests ran out of time in the paired tiles' switch tests before it).
# 1. tests: the 16-bit window's contract and kernels, its "auto" switch on an L1-68-like call, the TF32 window into
#    channels-last outputs (its epilogue changed in session 81);
# 2. quick timings, channels-last bf16: the rule against 0 where it was not timed (L2-61's 64 -> 128 channels, fam01's
#    64 -> 64 on wide lines), the grad_input's share (L1-68, L1-71: 2 against 1);
# 3. a kernel breakdown of L1-68's channels-last bf16 fwd+bwd (24 ms on the window: where the backward goes).
source scripts/device_prelude.sh
left 330 && gpu_tests 100 window16 tests/test_gather_tma_gpu.py "window_16bit_meets or window_16bit_is"
left 400 && gpu_tests 55 window16_auto tests/test_gather_tma_gpu.py "window_16bit_auto_switch and l1_68"
left 430 && gpu_tests 40 window_cl tests/test_gather_tma_gpu.py "tma_window_meets and channels_last"
{
  for problem in l2_61_convt3d_relu_groupnorm fam01_convt2d_k3_1024x1024; do
    left 480 && LAYOUT=channels_last quick_time window2 "$problem" bf16 auto
    left 500 && LAYOUT=channels_last quick_time window0 "$problem" bf16 auto TCONV_TMA_WINDOW_16BIT=0
  done
  for problem in l1_68_convt3d_square_input_asym_kernel l1_71_convt2d_asym_input_square_kernel; do
    left 520 && LAYOUT=channels_last quick_time window2 "$problem" bf16 auto
    left 540 && LAYOUT=channels_last quick_time window1 "$problem" bf16 auto TCONV_TMA_WINDOW_16BIT=1
  done
} | tee "$LOG/timing.log"
left 555 && timeout 30 python3 scripts/kernel_breakdown.py l1_68_convt3d_square_input_asym_kernel --precision bf16 \
  --layout channels_last --iters 2 2>&1 | grep -v Warn > "$LOG/breakdown.log"
head -c 3000 "$LOG/breakdown.log"
device_finish
