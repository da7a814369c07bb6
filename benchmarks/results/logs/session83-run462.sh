#!/usr/bin/env bash
# Session 83, run 462 (one H200, the session's last device time: ~846 s left before the call). Called as
# `TCONV_COMMIT=<full sha> bash benchmarks/results/logs/session83-run462.sh`.
# New since run 461: the channels-last 16-bit grad_weight by window (tconv_grad_weight_window_kernel; igemm_config.h:
# WindowWeightGradTile), "auto" for <= 64 channels a side at W stride 1 where the per-tap TMA grad_weight is not
# preferred (TCONV_GRAD_WEIGHT_WINDOW: 0 off, 2 also at 64 a side). Run 461 ran an uncommitted draft of it (stages
# of up to 128 positions, a runtime K loop that ptxas fenced) on fam07 and fam02, both verified.
# 1. its contract (bf16; fp16 last if time is left); 2. channels-last bf16 quick timings, the window against the
#    igemm grad_weight (=0) on L1-71, fam11, fam02, fam07, and against the per-tap TMA one (=2 against 1) on fam05 and
#    fam01; 3. its 64-channel test under 2; 4. a kernel breakdown of fam02's channels-last bf16 fwd+bwd (run 461:
#    5.501 ms against eager's 1.667).
source scripts/device_prelude.sh
left 400 && gpu_tests 110 gw_window tests/test_grad_weight_window_gpu.py "meets_the_contract and bf16"
{
  for problem in l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024 \
      fam02_convt3d_k3x5x7_16x32x64 fam07_convt3d_k3_96x96x96; do
    left 470 && LAYOUT=channels_last quick_time window "$problem" bf16 auto
    left 490 && LAYOUT=channels_last quick_time igemm "$problem" bf16 auto TCONV_GRAD_WEIGHT_WINDOW=0
  done
  for problem in fam05_convt2d_k3x7_512x512 fam01_convt2d_k3_1024x1024; do
    left 505 && LAYOUT=channels_last quick_time window2 "$problem" bf16 auto TCONV_GRAD_WEIGHT_WINDOW=2
    left 520 && LAYOUT=channels_last quick_time per_tap "$problem" bf16 auto
  done
} | tee "$LOG/timing.log"
left 500 && gpu_tests 45 gw_window_wide tests/test_grad_weight_window_gpu.py "under_2"
left 540 && timeout 30 python3 scripts/kernel_breakdown.py fam02_convt3d_k3x5x7_16x32x64 --precision bf16 \
  --layout channels_last --iters 2 2>&1 | grep -v Warn > "$LOG/breakdown.log"
head -c 2500 "$LOG/breakdown.log"
left 500 && gpu_tests 80 gw_window_fp16 tests/test_grad_weight_window_gpu.py "meets_the_contract and fp16"
device_finish
