#!/usr/bin/env bash
# Session 95, run 505: the first GPU call (one H200, cold), prepared in session 94 as next-session-first-run.sh.
# The TMA grad_weight's splits by waves (TCONV_GRAD_WEIGHT_TMA_WAVES=1, written after session 94's device time,
# compiled, not run): run 504's probes showed fam06's pass in three waves, the third of 6 blocks (splits rule
# ceil(2 x SMs / blocks)), L2-61 the same, U-Net 3D in two (the second of 60). Predicted passes (bf16 channels-last):
# fam06 2.727 -> ~1.9 ms, L2-61 1.232 -> ~0.88, U-Net 3D 0.147 -> ~0.11, DCGAN unchanged, VAE ~unchanged.
# 1. the TMA grad_weight's tests under WAVES=1 (contract, forms, weight-only first backward, fresh thread, probes);
# 2. kernel breakdowns WAVES=0 / 1 on fam06, L2-61, U-Net 3D, VAE (DCGAN's one split is the workspace's either way;
#    the rule stays only where it gains or holds);
# 3. next-session-second-run.sh (warm): verified rows.
# Also since session 94's device time: the fused block's op no longer materialises zero gradients for its
# non-differentiable outputs (L2-61: a 160 MB fill, 0.048 ms per bf16 fwd+bwd): the fused GPU tests' end-to-end,
# concurrent-backward and opcheck cases first; L2-61's bf16 row shows both changes (predicted f+b 2.906 -> ~2.5).
source scripts/device_prelude.sh
left 220 && gpu_tests 80 fused tests/test_fused_gpu.py "end_to_end or concurrently or opcheck"
export TCONV_GRAD_WEIGHT_TMA_WAVES=1  # (exported: a prefix assignment's reach into a shell function's children varies)
left 240 && gpu_tests 170 tma_waves tests/test_grad_weight_tma_gpu.py "not pair_meets"
unset TCONV_GRAD_WEIGHT_TMA_WAVES
breakdowns_ab 580 TCONV_GRAD_WEIGHT_TMA_WAVES "0 1" "grad_weight_tma|FillFunctor" bf16 channels_last \
  fam06_convt2d_k3x5_128x256 l2_61_convt3d_relu_groupnorm real_unet3d_up real_vae_up
device_finish
