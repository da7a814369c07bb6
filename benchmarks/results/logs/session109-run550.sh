#!/usr/bin/env bash
# Session 109, run 550. One H100 or H200, cold; committed before the call, which passes TCONV_COMMIT=<full sha>.
# Prepared in session 108 as the next session's first call (session 108 got no device), with session 109's exact
# split added (the device released idle machines after 30 s this session, so each call pays a cold build).
# 1. GroupNorm statistics in the conv's store, second form (wide_rows_group_stats): its contract tests and where it
#    is planned. Predicted: pass.
# 2. Its A/B on L2-61 (TCONV_CONV_STORE_STATISTICS 0 / 1): kernel breakdown in TF32, quick timing in TF32 and bf16.
#    Predicted: the forward kernel +2-4 % (~0.02-0.035 ms), the statistics pass (0.131 ms TF32 on H100) gone: the
#    forward ~0.10 ms faster in TF32.
# 3. Exact fp32 as one TF32 GEMM over 3x the K (tconv/_exact_split.py, TCONV_EXACT_SPLIT 0 / 1): quick timing of
#    L2-61 and fam06 in exact fp32, then its tests (the split kernel, where planned, the grid and long-K cases).
#    Predicted: L2-61's exact forward ~5.3 -> ~3.2 ms (3x 0.88 ms TF32 conv + the operand splits); the contract
#    holds if the wgmma accumulators round (the tests' long-K cases say).
source scripts/device_prelude.sh
left 290 && gpu_tests 140 store_stats tests/test_fused_gpu.py "conv_store"
breakdowns_ab 380 TCONV_CONV_STORE_STATISTICS "0 1" "unit_stride_forward|stats_channels|finalize|total" tf32 \
  contiguous l2_61_convt3d_relu_groupnorm
for precision in tf32 bf16; do
  for v in 0 1; do
    left 420 && quick_time "store_stats_$v" l2_61_convt3d_relu_groupnorm $precision auto TCONV_CONV_STORE_STATISTICS=$v
  done
done
for problem in l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256; do
  for v in 0 1; do left 500 && quick_time "exact_split_$v" $problem fp32 auto TCONV_EXACT_SPLIT=$v; done
done
left 560 && gpu_tests $(( 590 - $(date +%s) + start )) exact_split tests/test_exact_split_gpu.py \
  "kernel or planned or k0 or k1 or k2 or contiguous"
device_finish
