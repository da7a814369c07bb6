#!/usr/bin/env bash
# Session 86's first GPU call (one H200), prepared in session 85 and trimmed to end by ~560 s: the line boxes' test
# and fam02 timing first (they decide whether the line boxes go on by default), then the unit-stride and 16-bit window
# tests, an ncu stall profile of fam01's channels-last bf16 forward (0.44x eager), fam02's breakdown with the line
# boxes, and a verified fam06 row while the call has time.
# Session 85 (runs 467-469) gave channels-last 16-bit calls of <= 32 channels a side at unit stride to the unit-stride
# kernel's channels-last form (L1-71 0.328 / 1.074 ms, fam11 0.578 / 2.035, verified) and the 16-bit TMA window to
# wide lines of 64+ channels at 5+ W taps and <= 64 columns. Three edits after its last call were not run on a GPU:
# an empty batch plans as lines (run 469: the batch-0 case died of a division by the zero tile width), the wide-line
# rule's 64-column bound (fam06's forward back on the per-tap boxes), and the window rule's switch tests with the
# unit-stride rule off in their processes. Written after it, off by default: the window grad_weight's line boxes
# (TCONV_GRAD_WEIGHT_WINDOW_LINES=1) for deep calls such as fam02 (its grad_weight 4.464 ms on the igemm kernel).
source scripts/device_prelude.sh
left 320 && gpu_tests 60 line_boxes tests/test_grad_weight_window_gpu.py "line_boxes"
left 400 && LAYOUT=channels_last quick_time "lines" fam02_convt3d_k3x5x7_16x32x64 bf16 auto \
  TCONV_GRAD_WEIGHT_WINDOW_LINES=1 | tee -a "$LOG/timing.log"
left 410 && LAYOUT=channels_last quick_time "igemm" fam02_convt3d_k3x5x7_16x32x64 bf16 auto | tee -a "$LOG/timing.log"
left 420 && gpu_tests 40 unit_stride tests/test_conv_transpose_gpu.py "unit_stride_mma and not grad_weight"
left 430 && KERNEL=gather_tma16 CASES="fam01_cl_bf16:fam01_convt2d_k3_1024x1024:bf16:auto:channels_last" \
  OUT="$LOG" timeout 90 bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_summary.log"
left 450 && gpu_tests 90 window tests/test_gather_tma_gpu.py "window_16bit or window_short_tile"
TCONV_GRAD_WEIGHT_WINDOW_LINES=1 breakdowns 520 bf16 channels_last fam02_convt3d_k3x5x7_16x32x64
bench_budget 570 bf16 channels_last fam06_convt2d_k3x5_128x256
device_finish
