#!/usr/bin/env bash
# Session 90, run 486 (one H200, cold call). Run 485 (c900b97, the persistent per-tap kernel the default): the TMA
# gather's contract tests 52 passed, racecheck 0 hazards; channels-last bf16 forwards 0 -> 1: VAE 0.316 -> 0.216 ms,
# U-Net 3D 0.164 -> 0.118, DCGAN 0.127 -> 0.118; fam06 verified 0.955 / 4.145 ms (0.76x / 0.66x eager). Its paired-tiles
# test stopped at its 80 s limit after 3 passed (two processes a case). Here:
# 1. the paired-tiles switch tests in full on the refactored per-tap path;
# 2. verified channels-last bf16 rows of the strided problems the persistent kernel now takes (VAE, U-Net 3D, DCGAN)
#    and L2-61.
source scripts/device_prelude.sh
left 250 && gpu_tests 240 paired tests/test_gather_tma_gpu.py "gather_paired_tiles_switch"
bench_budget 580 bf16 channels_last real_vae_up real_unet3d_up real_dcgan_up l2_61_convt3d_relu_groupnorm
device_finish
