#!/usr/bin/env bash
# Session 95, run 506: the second GPU call (one H200, warm after run 505), prepared in session 94 as next-session-second-run.sh.
# Verified rows under TCONV_GRAD_WEIGHT_TMA_WAVES=1 where the first call's A/B gained (bf16 channels-last; session
# 94's rows: fam06 0.962 / 4.032 ms, L2-61 0.818 / 2.906, U-Net 3D (session 92) 0.122 / 0.533), and L2-61 TF32 with
# the fused op's zero-gradient fill gone (run 501: 1.269 / 4.779; predicted f+b ~-0.09 ms).
source scripts/device_prelude.sh
export TCONV_GRAD_WEIGHT_TMA_WAVES=1  # (exported: a prefix assignment's reach into a shell function's children varies)
bench_budget 420 bf16 channels_last fam06_convt2d_k3x5_128x256 l2_61_convt3d_relu_groupnorm real_unet3d_up
unset TCONV_GRAD_WEIGHT_TMA_WAVES
bench_budget 580 tf32 contiguous l2_61_convt3d_relu_groupnorm
device_finish
