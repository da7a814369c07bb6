#!/usr/bin/env bash
# Session 88, run 477 (one H200). Committed before the call; TCONV_COMMIT is the literal sha of that commit.
# Run 476's ncu source counters: fam02's window grad_weight waited on its one producer thread (79 % of samples on full
# stages, none on empty ones; ~167 instructions a stage); fam01's window forward spent ~37 % of its samples in the
# channels-last epilogue's two 32-bit divisions a row. This call checks and times:
# 1. the window grad_weight with producer warps (TCONV_GRAD_WEIGHT_WINDOW_PRODUCERS, unset 2): the contract test and
#    the new producers test (1, and 4 over 6 stages);
# 2. the window forward's epilogue by counting (and the 32-bit block decode), the 16-bit rule's wide lines from 3 W
#    taps in grad_input too: the 16-bit and TF32 window contracts in channels-last, the wide switch's test;
# 3. quick timing: fam02 and L1-68 under 1 / 2 / 4 producers; fam01, fam05, fam06 "auto";
# 4. verified channels-last bf16 rows while the call has time.
source scripts/device_prelude.sh
left 330 && gpu_tests 80 gw_window tests/test_grad_weight_window_gpu.py "bf16 and (meets_the_contract or producers)"
left 360 && gpu_tests 110 window tests/test_gather_tma_gpu.py \
  "(window_16bit_meets_the_contract and bf16) or (tma_window_meets_the_contract and channels_last) or wide_switch"
for producers in 2 1 4; do
  left 470 && LAYOUT=channels_last quick_time "producers$producers" fam02_convt3d_k3x5x7_16x32x64 bf16 auto \
    TCONV_GRAD_WEIGHT_WINDOW_PRODUCERS=$producers | tee -a "$LOG/timing.log"
done
for producers in 2 1; do
  left 490 && LAYOUT=channels_last quick_time "producers$producers" l1_68_convt3d_square_input_asym_kernel bf16 auto \
    TCONV_GRAD_WEIGHT_WINDOW_PRODUCERS=$producers | tee -a "$LOG/timing.log"
done
for problem in fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256; do
  left 510 && LAYOUT=channels_last quick_time auto $problem bf16 auto | tee -a "$LOG/timing.log"
done
bench_budget 570 bf16 channels_last fam01_convt2d_k3_1024x1024 fam02_convt3d_k3x5x7_16x32x64 \
  fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256 l1_68_convt3d_square_input_asym_kernel
device_finish
