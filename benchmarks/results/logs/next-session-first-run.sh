#!/usr/bin/env bash
# Prepared in session 80 for the next session's first GPU call (one H200; rename to sessionNN-runMMM.sh when it runs,
# fix these lines, commit, pass TCONV_COMMIT=<literal full sha>).
# Session 80 measured channels-last for the first time: bf16 rows at 0.13-0.35x eager, after its fixes (the TMA
# gather in place with a channels-last epilogue, grad_weight's copies along the channels) DCGAN 0.81x / 0.55x, VAE
# 0.70x / 0.41x, U-Net 3D 0.69x / 0.50x, L2-61 0.53x / 0.45x, L1-71 0.14x / 0.18x. The other 13 4-D/5-D problems have
# no channels-last row and no breakdown says which kernels bound any of them now. So:
# 1. kernel breakdowns (serial backward), channels-last bf16, of every 4-D/5-D problem, ours;
# 2. verified channels-last bf16 rows of the 13 without one, while the time budget lasts.
source scripts/device_prelude.sh
for problem in l1_71_convt2d_asym_input_square_kernel l2_61_convt3d_relu_groupnorm real_dcgan_up real_vae_up \
    l1_68_convt3d_square_input_asym_kernel l1_73_convt3d_strided_padded_grouped \
    l1_72_convt3d_asym_kernel_strided_padded_grouped fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512 \
    fam06_convt2d_k3x5_128x256 fam03_convt3d_k3_64x64x64; do
  left 380 && timeout 30 python3 scripts/kernel_breakdown.py "$problem" --precision bf16 --layout channels_last \
    --iters 3 2>&1 | grep -v "Warn\|_warn_once"
done > "$LOG/breakdown.log" 2>&1
head -c 7000 "$LOG/breakdown.log"
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
