#!/usr/bin/env bash
# Session 87's second GPU call (one H200, ~1235 s of device time left: the command ends by ~575 s). Run 473's ncu of
# the window grad_weight (fam02 channels-last bf16, 989 us): tensor pipe 13 %, L2 1.33 TB/s, no eligible warp 90 % of
# cycles, 17.2 of 21.6 cycles per issued instruction long scoreboard (the warpgroups waiting on full stages). Its one
# producer thread took three 64-bit divisions a unit and one 32-bit division a line box; it now counts (unit, line,
# stage, phase), and TCONV_GRAD_WEIGHT_WINDOW_STAGES sets the ring's most stages (8 unset; 4-12).
# Expected: fam02's grad_weight 0.98 -> ~0.4-0.6 ms if the producer bound it, fwd+bwd 1.97 -> ~1.5; 12 stages a
# little more where the latency of the boxes bounds it (fam02: 19 KB stages, 11 fit).
# 1. GPU tests (bf16): the window grad_weight's contract, wide, line-box and (new) stage-count cases;
# 2. quick timings, channels-last bf16: fam02 and L1-68 under 8 and 12 stages;
# 3. fam01 / fam05 / fam06 forwards, "auto" against "igemm_tma_window" (run 473's ncu timed fam01's forward on the
#    window at 2.35 ms against run 470's 2.65 on the per-tap boxes);
# 4. a kernel breakdown of fam02 (8 stages).
source scripts/device_prelude.sh
left 300 && gpu_tests 150 gw_window tests/test_grad_weight_window_gpu.py "bf16"
for stages in 8 12; do
  left 420 && LAYOUT=channels_last quick_time "stages$stages" fam02_convt3d_k3x5x7_16x32x64 bf16 auto \
    TCONV_GRAD_WEIGHT_WINDOW_STAGES=$stages | tee -a "$LOG/timing.log"
done
for stages in 8 12; do
  left 460 && LAYOUT=channels_last quick_time "stages$stages" l1_68_convt3d_square_input_asym_kernel bf16 auto \
    TCONV_GRAD_WEIGHT_WINDOW_STAGES=$stages | tee -a "$LOG/timing.log"
done
for problem in fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256; do
  for algorithm in auto igemm_tma_window; do
    left 520 && LAYOUT=channels_last quick_time "$algorithm" $problem bf16 $algorithm | tee -a "$LOG/timing.log"
  done
done
breakdowns 575 bf16 channels_last fam02_convt3d_k3x5x7_16x32x64
device_finish
