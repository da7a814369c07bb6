#!/usr/bin/env bash
# Run 318: "auto" against the autotune on the weakest TF32 suite rows (session48-run318_autotune.py).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 380 python3 benchmarks/results/logs/session48-run318_autotune.py real_dcgan_up real_unet3d_up real_vae_up \
  real_hifigan_up fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256 l2_61_convt3d_relu_groupnorm \
  fam04_convt1d_k3_65536 fam01_convt2d_k3_1024x1024 > "$OUT/autotune.log" 2>&1
echo "rc $? after $(( $(date +%s) - start )) s"
grep -v "^$" "$OUT/autotune.log" | tail -70
