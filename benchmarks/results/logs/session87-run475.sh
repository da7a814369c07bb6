#!/usr/bin/env bash
# Session 87's third GPU call (one H200, ~615 s of device time left after a refused start: the command ends by ~490 s). Run 474: the window
# grad_weight's producer by counters took fam02's grad_weight 0.978 -> 0.510 ms (fwd+bwd 1.971 -> 1.509, quick
# timing), L1-68 15.874 -> 11.935; 12 stages level with 8. fam01's forward on the window 2.353 ms against the per-tap
# boxes' 2.676, so "auto" now takes wide lines of 64 channels from 3 W taps in the forward (TmaWindow16BitAutoRule).
# 1. the 16-bit window's auto-switch test for the wide-line cases (window_wide_three new: forward only);
# 2. verified channels-last bf16 rows: fam01 (expected ~2.36 / ~6.4), fam02 (~0.56 / ~1.51), L1-68 (~3.05 / ~11.9),
#    fam05 (~1.00 / ~2.76), fam07, fam03 while the call has time.
source scripts/device_prelude.sh
left 250 && gpu_tests 90 window_rule tests/test_gather_tma_gpu.py \
  "window_16bit_auto_switch and (window_wide_three or window_wide_2d or window_wide_five_128)"
bench_budget 490 bf16 channels_last fam01_convt2d_k3_1024x1024 fam02_convt3d_k3x5x7_16x32x64 \
  l1_68_convt3d_square_input_asym_kernel fam05_convt2d_k3x7_512x512 fam07_convt3d_k3_96x96x96 fam03_convt3d_k3_64x64x64
device_finish
