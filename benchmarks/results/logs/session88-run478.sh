#!/usr/bin/env bash
# Session 88, run 478 (one H200; the session's last device time, ~430 s of wall after a refused start). Committed
# before the call; TCONV_COMMIT is the literal sha of that commit.
# Run 477 (e964bb2): producer warps in the window grad_weight (fam02 fwd+bwd 1.528 / 1.290 / 1.197 ms at 1 / 2 / 4,
# L1-68 11.642 / 9.482 at 1 / 2) and the window forward's epilogue by counting (fam01's forward 2.350 -> 1.868).
# The default is now 4 producers. This call:
# 1. the 16-bit window's auto-switch test on the two cases whose expectations the wide-line rule changed;
# 2. L1-68 under 4 against 2 producers (quick timing);
# 3. verified channels-last bf16 rows of fam02 and L1-68, then the window grad_weight's contract (bf16) if time is left.
source scripts/device_prelude.sh
left 300 && gpu_tests 80 window_auto tests/test_gather_tma_gpu.py \
  "window_16bit_auto_switch and (window_wide_2d or window_wide_three)"
for producers in 4 2; do
  left 360 && LAYOUT=channels_last quick_time "producers$producers" l1_68_convt3d_square_input_asym_kernel bf16 auto \
    TCONV_GRAD_WEIGHT_WINDOW_PRODUCERS=$producers | tee -a "$LOG/timing.log"
done
bench_budget 390 bf16 channels_last fam02_convt3d_k3x5x7_16x32x64 l1_68_convt3d_square_input_asym_kernel
left 370 && gpu_tests 40 gw_window tests/test_grad_weight_window_gpu.py "bf16 and meets_the_contract"
device_finish
