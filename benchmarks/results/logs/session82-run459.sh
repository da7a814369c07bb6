#!/usr/bin/env bash
# Session 82, run 459 (one H200, the session's last device time: ~690 s left before the call); TCONV_COMMIT is this
# commit's full sha, passed by the caller.
# Run 458: the 16-bit window passed its tests (48 contract and kernel tests, "auto"'s switch on an L1-68-like call, the
# TF32 window into channels-last outputs: 22) and won on L2-61 (0.886 / 2.762 against 1.026 / 2.908 ms) but not on
# fam01's wide lines of 64 channels (2.835 against 2.678): refused there since. L1-68's channels-last backward: the TMA
# grad_weight took 36.4 of 43.4 ms of kernels (32 -> 64 channels: mostly padding in its 64-channel boxes and 128 x 128
# tiles); "auto" now leaves it below 64 channels a side for the igemm grad_weight (run 457's "igemm_tma_window":
# L1-68 fwd+bwd 24.1 against 31.0, L1-71 3.595 against 5.055).
# 1. the few-channels test of the grad_weight rule;
# 2. verified channels-last bf16 rows while the call lasts, the rows the rules changed first (stride 1, 3+ W taps).
source scripts/device_prelude.sh
left 330 && gpu_tests 40 gw_rule tests/test_grad_weight_tma_gpu.py "not_for_few"
budget=$(( 515 - ($(date +%s) - start) ))
[ "$budget" -gt 20 ] && timeout $(( budget + 45 )) python3 -m tconv bench l1_71_convt2d_asym_input_square_kernel \
  fam03_convt3d_k3_64x64x64 l2_61_convt3d_relu_groupnorm fam11_convt2d_k3x7_p1x3_512x1024 fam05_convt2d_k3x7_512x512 \
  fam07_convt3d_k3_96x96x96 fam02_convt3d_k3x5x7_16x32x64 l1_68_convt3d_square_input_asym_kernel \
  fam06_convt2d_k3x5_128x256 fam01_convt2d_k3_1024x1024 --precision bf16 --layout channels_last \
  --no-compile --runs 20 --warmup 3 --time-budget "$budget" --out "$OUT" 2>&1 | grep -vE "^\s*$" \
  | tee "$LOG/bench_channels_last.log" | grep -v "^chart\|^results\|^resume"
find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
rm -f "$OUT"/*.png
device_finish
