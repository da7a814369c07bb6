#!/usr/bin/env bash
# Session 83, run 460 (one H200), prepared in session 82 as next-session-first-run.sh. Called as
# `TCONV_COMMIT=<full sha> bash benchmarks/results/logs/session83-run460.sh`.
# Session 82 (runs 457-459): "auto" runs 16-bit channels-last sources on the TMA window (forward and grad_input, 3+ W
# taps; not on wide lines of 64+ channels) and leaves the TMA grad_weight below 64 channels a side. Channels-last bf16
# verified rows (run 459): L1-71 0.892 / 3.595 ms (0.41x / 0.38x eager), fam03 2.04x / 1.22x, L2-61 1.92x / 1.08x,
# fam11 0.92x / 0.50x, fam05 0.61x / 0.40x. Written after the device time, not run on a GPU:
# - TCONV_TMA_WINDOW_SHORT=1: 16-bit window calls of <= 64 columns and <= 8 (D, H) taps x chunks on TmaWindowShortTile
#   (256 positions, 3 stages, one producer warp, two blocks per SM; 90 registers). Predicted: L1-71's and fam11's
#   forwards ~1.5x faster (VAE's per-tap forward went 0.482 -> 0.319 ms on the same change, run 456).
# - tests not reached in run 459: the grad_weight rule's few-channels test and the TMA grad_weight contract with its
#   changed partial case (80 -> 96 channels).
# 1. tests (bf16 only where a mode is a parameter);
# 2. channels-last bf16 timings: L1-71 and fam11 against TCONV_TMA_WINDOW_SHORT=1; fam05 (7 W taps on wide lines of 64
#    channels, refused by the rule after fam01's 3 taps lost 6 %) "auto" against "igemm_tma_window" (forward column);
# 3. kernel breakdowns of L1-71's channels-last backward (2.7 ms against eager's ~1.0: the window's grad_input and the
#    igemm grad_weight, split unknown).
# If the short tile wins and passes: "auto" by default (a switch to turn it off), then the verified rows of the other
# ten 4-D/5-D problems (next-session-second-run.sh) and again L1-71 / fam11.
# Also new since run 459: the unit-stride forward's instantiations build in their own translation unit (locally the
# strip part 310 s -> 82 + 222 s); the call prints ninja's slowest units at its end (grad_weight's part is expected
# next: 291 s locally), and its build time ("built after") against runs 457-459's 283-348 s.
source scripts/device_prelude.sh
left 400 && gpu_tests 80 gw_rule tests/test_grad_weight_tma_gpu.py "not_for_few or (contract and bf16)"
left 420 && gpu_tests 90 window_short tests/test_gather_tma_gpu.py "window_short_tile_switch and bf16"
{
  for problem in l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024; do
    left 480 && LAYOUT=channels_last quick_time default "$problem" bf16 auto
    left 500 && LAYOUT=channels_last quick_time short "$problem" bf16 auto TCONV_TMA_WINDOW_SHORT=1
  done
  left 520 && LAYOUT=channels_last quick_time default fam05_convt2d_k3x7_512x512 bf16 auto
  left 530 && LAYOUT=channels_last quick_time window fam05_convt2d_k3x7_512x512 bf16 igemm_tma_window
} | tee "$LOG/timing.log"
left 550 && timeout 30 python3 scripts/kernel_breakdown.py l1_71_convt2d_asym_input_square_kernel --precision bf16 \
  --layout channels_last --iters 2 2>&1 | grep -v Warn > "$LOG/breakdown.log"
head -c 3000 "$LOG/breakdown.log"
# the build's slowest translation units (ninja's log: start and end ms)
find "$TCONV_BUILD_DIR" -name .ninja_log -exec awk 'NR > 1 {printf "%6.1f s %s\n", ($2 - $1) / 1000, $4}' {} \; \
  | sort -rn | head -6
device_finish
