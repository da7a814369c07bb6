#!/usr/bin/env bash
# Session 81, run 454 (one H200, first call; prepared in session 80); TCONV_COMMIT is this commit's full sha,
# passed by the caller.
# Session 80 measured channels-last for the first time: bf16 rows at 0.13-0.35x eager; after its fixes (the TMA
# gather in place with a channels-last epilogue, grad_weight's copies along the channels) DCGAN 0.81x / 0.55x, VAE
# 0.70x / 0.41x, U-Net 3D 0.69x / 0.50x, L2-61 0.53x / 0.45x, L1-71 0.14x / 0.18x. Written after its device time,
# untested, each under a switch:
# - TCONV_GRAD_WEIGHT_TMA=1: grad_weight of channels-last 16-bit data by TMA boxes and k16 wgmmas on transposed
#   operands (tconv_grad_weight_tma_kernel). Predicted: DCGAN's pass ~1.0 -> ~0.15-0.2 ms (68.7 GFLOP at ~400 TF/s),
#   fwd+bwd 1.30 -> ~0.45 ms (above eager's 0.72).
# - TCONV_TMA_IN_PLACE_PARTIAL=1: "auto" gives in-place 16-bit sources the partial boxes and 64-column tiles
#   (L1-71: 514 x 1026 grid, 32 columns; L2-61: 34^3). Predicted: L1-71's forward 2.63 -> ~0.3-0.5 ms.
# 1. their tests (the contract under each switch, which kernels run);
# 2. channels-last bf16 quick timings, default against both switches: DCGAN, VAE, U-Net 3D, L2-61, L1-71;
# 3. if time is left: verified channels-last bf16 rows of problems without one (under the default rules).
# If the switches win and pass: make them the rules, then rows of all 18 4-D/5-D problems (next call).
source scripts/device_prelude.sh
left 330 && gpu_tests 120 gw_tma tests/test_grad_weight_tma_gpu.py "contract"
left 380 && gpu_tests 70 partial tests/test_gather_tma_gpu.py "in_place_partial"
{
  for problem in real_dcgan_up real_vae_up real_unet3d_up l2_61_convt3d_relu_groupnorm \
      l1_71_convt2d_asym_input_square_kernel; do
    left 500 && LAYOUT=channels_last quick_time default "$problem" bf16 auto
    left 510 && LAYOUT=channels_last quick_time switches "$problem" bf16 auto TCONV_GRAD_WEIGHT_TMA=1 \
      TCONV_TMA_IN_PLACE_PARTIAL=1
  done
} | tee "$LOG/timing.log"
budget=$(( 540 - ($(date +%s) - start) ))
[ "$budget" -gt 20 ] && timeout $(( budget + 40 )) python3 -m tconv bench l1_68_convt3d_square_input_asym_kernel \
  l1_73_convt3d_strided_padded_grouped l1_72_convt3d_asym_kernel_strided_padded_grouped fam01_convt2d_k3_1024x1024 \
  fam02_convt3d_k3x5x7_16x32x64 fam03_convt3d_k3_64x64x64 fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256 \
  fam07_convt3d_k3_96x96x96 fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 fam10_convt3d_k3_s2_p1_d2_16x32x32 \
  fam11_convt2d_k3x7_p1x3_512x1024 fam13_convt2d_k3_s5_p1_d2_64x128 --precision bf16 --layout channels_last \
  --no-compile --runs 20 --warmup 3 --time-budget "$budget" --out "$OUT" 2>&1 | grep -vE "^\s*$" \
  | tee "$LOG/bench_channels_last.log" | grep -v "^chart\|^results\|^resume"
find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
rm -f "$OUT"/*.png
device_finish
