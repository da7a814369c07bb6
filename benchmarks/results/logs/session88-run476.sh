#!/usr/bin/env bash
# Session 88, run 476 (one H200), prepared in session 87. Committed before the call; TCONV_COMMIT is the literal sha
# of that commit.
# Session 87 (runs 473-475): the window grad_weight's producer by counters (fam02's grad_weight 0.978 -> 0.510 ms;
# channels-last bf16 L1-68 1.80x, fam03 1.75x, fam02 1.11x fwd+bwd, verified) and the 16-bit window's forward on wide
# lines of 64 channels from 3 W taps (fam01 2.657 -> 2.351 ms). Channels-last bf16 geomean 1.23x / 1.07x.
# 1. the wide-line switch's test (TCONV_TMA_WINDOW_WIDE=2 new: window_wide_three's grad_input on the window too);
# 2. fam01 channels-last bf16: "auto" against TCONV_TMA_WINDOW_WIDE=2 (its grad_input, 3 W taps, on the window; run
#    474: the forward gained 12 % there);
# 3. ncu source counters (scripts/ncu_source.sh, read offline by ncu_source_summary.py) of the window grad_weight on
#    fam02 after the counters (0.51 ms: ~0.56 us a stage against ~0.14 of MMAs; 12 stages level with 8, so not the
#    ring's depth) and of fam01's forward on the short window tile (a block lives ~29500 clocks for ~4600 of wgmmas);
# 4. verified rows of the other window grad_weight users not measured since the counters: L1-71, fam11.
# The 16-bit window's auto-switch and short-tile switch tests in full (never seen to finish; ~250 s: each case spawns
# three processes) need a call of their own.
source scripts/device_prelude.sh
left 300 && gpu_tests 60 wide_switch tests/test_gather_tma_gpu.py "window_16bit_wide_switch"
for wide in 1 2; do
  left 350 && LAYOUT=channels_last quick_time "wide$wide" fam01_convt2d_k3_1024x1024 bf16 auto \
    TCONV_TMA_WINDOW_WIDE=$wide | tee -a "$LOG/timing.log"
done
left 360 && KERNEL=grad_weight_window CASES="gw_fam02_cl_bf16:fam02_convt3d_k3x5x7_16x32x64:bf16:auto:channels_last" \
  OUT="$LOG" timeout 110 bash scripts/ncu_source.sh 2>&1 | tee "$LOG/ncu_source.log"
left 450 && KERNEL=gather_tma_window CASES="fwd_fam01_cl_bf16:fam01_convt2d_k3_1024x1024:bf16:auto:channels_last" \
  OUT="$LOG" timeout 110 bash scripts/ncu_source.sh 2>&1 | tee -a "$LOG/ncu_source.log"
gzip -f "$LOG"/src_*.csv 2>/dev/null
bench_budget 570 bf16 channels_last l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024
device_finish
