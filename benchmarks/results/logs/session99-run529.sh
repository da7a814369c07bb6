#!/usr/bin/env bash
# Session 99, run 529 (one H200, cold). Run as
# TCONV_COMMIT=<full sha, typed out> bash benchmarks/results/logs/session99-run529.sh
# Run 528: the one-tap mma forward 0.300 ms against the FFMA form's 0.373 (now the fp16 / bf16 default); fam13 bf16 CL
# fwd+bwd 0.579, of which grad_weight 0.183. New: TCONV_ONE_TAP_GRAD_WEIGHT=1 (development, default 0), a one-tap
# grad_weight on mma.sync (ldmatrix.trans fragments of position-major tiles, per (kd, kh) tap a split-K GEMM over input
# positions, sum_splits after). Predicted fam13 grad_weight 0.183 -> ~0.05-0.07 ms, fwd+bwd 0.579 -> ~0.46.
# ldmatrix helpers moved from conv_transpose_unit_stride_mma.cu to mma_sm80.h: some of that kernel's tests too.
# 1. one-tap tests (a new W-tiles case; the backward switch tests for grad_input and grad_weight); 2. unit-stride mma
# tests; 3. fam13 bf16 CL under TCONV_ONE_TAP_GRAD_WEIGHT 0 / 1 and the breakdown under 1; 4. verified rows under 1.
source scripts/device_prelude.sh
left 200 && gpu_tests 200 one_tap tests/test_conv_transpose_gpu.py "one_tap"
left 380 && gpu_tests 80 unit_stride tests/test_conv_transpose_gpu.py \
  "unit_stride_mma_grad_weight or unit_stride_mma_channels_last"
stem=fam13_convt2d_k3_s5_p1_d2_64x128
for gw in 0 1; do
  left 440 && LAYOUT=channels_last quick_time gw$gw $stem bf16 auto TCONV_ONE_TAP_GRAD_WEIGHT=$gw
done | tee "$LOG/fam13_grad_weight.log"
left 460 && TCONV_ONE_TAP_GRAD_WEIGHT=1 breakdowns 500 bf16 channels_last $stem
TCONV_ONE_TAP_GRAD_WEIGHT=1 bench_budget 570 bf16 channels_last $stem
device_finish
