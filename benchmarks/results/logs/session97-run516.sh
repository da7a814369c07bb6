#!/usr/bin/env bash
# Session 97, run 516 (one H200, cold; prepared in session 96, extended). Run as
# TCONV_COMMIT=<sha> bash benchmarks/results/logs/session97-run516.sh
# Run 515: the ping-pong tile passed (bf16 / fp16, racecheck clean) and moved fam06's forward GEMM 0.956 -> 0.901 ms,
# so it is now the default (TCONV_TMA_GATHER_PING_PONG unset = 1). Here:
# 1. the per-tap kernels' tests at that default (in-place contract, persistent, paired tiles, the concurrent
#    backward's persistent query);
# 2. kernel breakdowns of the bf16 channels-last rows whose fwd+bwd is below eager and that no breakdown explains yet
#    (L1-73 0.82x, fam09 0.85x, fam13 0.88x), to pick the next backward target;
# 3. the verified bf16 channels-last rows it touches (fam06; VAE and DCGAN keep their paired or 256-column tiles, so
#    theirs are the check that nothing else moved).
source scripts/device_prelude.sh
left 330 && gpu_tests 300 per_tap tests/test_gather_tma_gpu.py \
  "tma_gather_16bit_in_place_meets_the_contract and bf16 or persistent_switch or paired_tiles_switch or grad_input_persistent"
breakdowns 460 bf16 channels_last l1_73_convt3d_strided_padded_grouped fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 \
  fam13_convt2d_k3_s5_p1_d2_64x128
bench_budget 585 bf16 channels_last fam06_convt2d_k3x5_128x256 real_vae_up real_dcgan_up
device_finish
