#!/usr/bin/env bash
# Session 96, run 512 (one H200, cold). Committed before the call; TCONV_COMMIT=<sha> passed on the command line.
# The tall tile (TCONV_TMA_GATHER_TALL=1, development, written this session, not yet run): the persistent per-tap
# kernel on 256 positions x 128 columns, two 64-row wgmmas a warpgroup on every B slice (158 registers, no spills).
# 1. its test (bit for bit against the 128-position tile, the contract under "igemm_tma", its launches), bf16 / fp16;
# 2. kernel breakdowns TALL 0 / 1 on fam06 and L2-61 (bf16 channels-last). Predicted: fam06's forward GEMM 0.96 ->
#    ~0.75 ms (-25 % of the bytes a FLOP at ~35 B a clock an SM, its boxes covering 86 % of rows against 91 %),
#    L2-61's ~0.7 -> ~0.6 (68 % against 76 %);
# 3. bench rows fam06, L2-61 under TALL=1 (bf16 channels-last), if the time allows;
# 4. the persistent per-tap test in bf16 (its MMA loop now takes the tall tile's two 64-row tiles too).
source scripts/device_prelude.sh
left 400 && gpu_tests 200 tall tests/test_gather_tma_gpu.py "tma_gather_tall_switch"
breakdowns_ab 420 TCONV_TMA_GATHER_TALL "0 1" "gather_tma16_persistent" bf16 channels_last \
  fam06_convt2d_k3x5_128x256 l2_61_convt3d_relu_groupnorm
left 440 && TCONV_TMA_GATHER_TALL=1 bench_budget 520 bf16 channels_last fam06_convt2d_k3x5_128x256 \
  l2_61_convt3d_relu_groupnorm
left 500 && gpu_tests 80 persistent tests/test_gather_tma_gpu.py "tma_gather_persistent_switch and bf16"
device_finish
