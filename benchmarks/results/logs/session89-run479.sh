#!/usr/bin/env bash
# Session 89, run 479 (one H200), prepared in session 88.
# Session 88 (runs 476-478): 4 producer warps in the window grad_weight (fam02 fwd+bwd 1.201, L1-68 9.073 verified),
# the window forward's channels-last epilogue by counting (fam01's forward 2.350 -> 1.868), wide lines from 3 W taps
# in grad_input too; channels-last bf16 geomean 1.26x / 1.15x. Written after its device time, never run: the
# persistent short tile (TCONV_TMA_WINDOW_PERSISTENT=1, off by default).
# 1. the persistent short tile's test (bf16: contract, bitwise against the switch off, launches);
# 2. fam01 and fam05 channels-last bf16 under TCONV_TMA_WINDOW_PERSISTENT 0 / 1 (prediction, fam01's forward: 1.87
#    -> ~1.4-1.5 ms);
# 3. the window grad_weight's contract under the default 4 producers over 8 stages (bf16 and fp16);
# 4. verified rows of the window grad_weight's other users under 4 producers: fam03, fam07, L1-71, fam11.
source scripts/device_prelude.sh
left 300 && gpu_tests 120 persistent tests/test_gather_tma_gpu.py "window_persistent_switch and bf16"
for problem in fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512; do
  for persistent in 0 1; do
    left 470 && LAYOUT=channels_last quick_time "persistent$persistent" $problem bf16 auto \
      TCONV_TMA_WINDOW_PERSISTENT=$persistent | tee -a "$LOG/timing.log"
  done
done
left 480 && gpu_tests 80 gw_window tests/test_grad_weight_window_gpu.py "meets_the_contract"
bench_budget 570 bf16 channels_last fam03_convt3d_k3_64x64x64 fam07_convt3d_k3_96x96x96 \
  l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024
device_finish
