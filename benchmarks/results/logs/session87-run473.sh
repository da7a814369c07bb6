#!/usr/bin/env bash
# Session 87's first GPU call (one H200, prepared in session 86; the command ends by ~570 s).
# Session 86 (runs 470-472) gave the window grad_weight line boxes by default, one partial sum a split, chunks by the
# blocks' count of tiles and 128 tiles a call: fam02 channels-last bf16 0.559 / 1.971 ms (verified), L1-68 fwd+bwd
# 24.143 -> 15.885 (quick timing only). Its tests ran out of time in run 470 before pytest's summaries.
# 1. GPU tests, split so each ends: the unit-stride channels-last grid (its batch-0 case never seen to pass), the
#    16-bit window's switch tests (the wide-line cases and the unit-stride-off processes, not seen to run);
# 2. ncu of the window grad_weight on fam02 channels-last bf16 (~1.07 us a stage against ~0.15 us of MMAs), and of
#    fam01's channels-last forward forced onto the TMA window;
# 3. verified channels-last bf16 rows: L1-68 (the window grad_weight), fam07, fam03 while the call has time.
source scripts/device_prelude.sh
left 300 && gpu_tests 45 unit_stride_cl tests/test_conv_transpose_gpu.py "unit_stride_mma_channels_last"
left 340 && gpu_tests 60 window_switches tests/test_gather_tma_gpu.py \
  "window_16bit_auto_switch or window_16bit_wide_switch or window_short_tile_switch"
left 400 && KERNEL=grad_weight_window CASES="fam02_cl_bf16:fam02_convt3d_k3x5x7_16x32x64:bf16:auto:channels_last" \
  OUT="$LOG" timeout 90 bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_summary.log"
# fam01's forward forced onto the TMA window (run 458: 2.835 ms against the per-tap boxes' 2.678; run 470's ncu of
# the per-tap form is the baseline): does the window's A reuse leave it bound elsewhere?
left 440 && KERNEL=gather_tma_window CASES="fam01_window_bf16:fam01_convt2d_k3_1024x1024:bf16:igemm_tma_window:channels_last" \
  OUT="$LOG" timeout 90 bash scripts/ncu_stalls.sh 2>&1 | tee -a "$LOG/ncu_summary.log"
bench_budget 570 bf16 channels_last l1_68_convt3d_square_input_asym_kernel fam07_convt3d_k3_96x96x96 \
  fam03_convt3d_k3_64x64x64
device_finish
