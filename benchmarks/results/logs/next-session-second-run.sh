#!/usr/bin/env bash
# Prepared in session 96 for the next session's second GPU call (one H200, warm; rename to sessionNN-runMMM.sh when it
# runs, fix these lines, commit BEFORE the call, pass TCONV_COMMIT=<sha>).
# Only if the first call's ping-pong tile passed and gained, and it became the default (TCONV_TMA_GATHER_PING_PONG
# unset = 1): the per-tap kernels' tests at that default (in-place contract, persistent, paired tiles, the concurrent
# backward's persistent query), then the verified bf16 channels-last rows it touches (fam06; U-Net block, VAE and
# DCGAN keep their paired or 256-column tiles, so theirs are the check that nothing else moved).
source scripts/device_prelude.sh
left 330 && gpu_tests 300 per_tap tests/test_gather_tma_gpu.py \
  "tma_gather_16bit_in_place_meets_the_contract and bf16 or persistent_switch or paired_tiles_switch or grad_input_persistent"
bench_budget 580 bf16 channels_last fam06_convt2d_k3x5_128x256 real_vae_up real_dcgan_up
device_finish
