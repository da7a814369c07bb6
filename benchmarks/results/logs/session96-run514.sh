#!/usr/bin/env bash
# Session 96, run 514 (one H200, cold). Committed before the call; TCONV_COMMIT=<sha> passed on the command line.
# Run 513's ncu of fam06's persistent forward: tensor pipe active 65 % (68.7 % on the 256-position tile, which left
# it level), the top stall the epilogue's named barriers: both warpgroups store their tile while the tensor cores idle.
# The ping-pong tile (TCONV_TMA_GATHER_PING_PONG=1, development, written this session, not yet run): the warpgroups
# take a block's tiles in turn, each a whole 128-position tile (158 registers, no spills).
# 1. its test (bit for bit against the shared tile, the contract under "igemm_tma", its launches), bf16 / fp16;
# 2. kernel breakdowns PING_PONG 0 / 1 on fam06 and L2-61 (bf16 channels-last). Predicted: fam06's forward GEMM
#    0.95 -> ~0.70-0.75 ms;
# 3. bench rows fam06, L2-61 under PING_PONG=1 (bf16 channels-last), if the time allows;
# 4. the persistent per-tap test in bf16 (the shared tile's MMA loop and epilogue now also serve the ping-pong one).
source scripts/device_prelude.sh
left 330 && gpu_tests 120 ping_pong tests/test_gather_tma_gpu.py "tma_gather_ping_pong_switch"
breakdowns_ab 350 TCONV_TMA_GATHER_PING_PONG "0 1" "gather_tma16_persistent" bf16 channels_last \
  fam06_convt2d_k3x5_128x256 l2_61_convt3d_relu_groupnorm
left 380 && TCONV_TMA_GATHER_PING_PONG=1 bench_budget 450 bf16 channels_last fam06_convt2d_k3x5_128x256 \
  l2_61_convt3d_relu_groupnorm
left 460 && gpu_tests 60 persistent tests/test_gather_tma_gpu.py "tma_gather_persistent_switch and bf16"
device_finish
