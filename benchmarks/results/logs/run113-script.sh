#!/usr/bin/env bash
# Run 113 (session 17): bf16 A/B of the bulk-copied B against b0e89e0, then the specialized tile's choice
# re-measured with B bulk-copied (TCONV_GATHER_SPECIALIZED=0|1|2: plain, 128 and 256 producers) on the shapes
# choose_wider_gather keeps plain (few K-loop stages; HiFi-GAN's spread grad_input).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1
t0=$SECONDS
if [ -d /tmp/old_build ] && [ -d /tmp/tconv_build ]; then SB=1; else SB=; fi
OUT=/tmp/ab SKIP_BUILD=$SB ROUNDS=1 PRECISIONS=bf16 bash scripts/device_ab.sh ab_old \
  l2_61_convt3d_relu_groupnorm l1_68_convt3d_square_input_asym_kernel real_dcgan_up 2>&1 | tee $OUT/ab_bf16.log
echo "ab $((SECONDS-t0)) s"
OUT=/tmp/sw SWITCH=TCONV_GATHER_SPECIALIZED VALUES="0 1 2" ROUNDS=1 PRECISIONS=tf32 TCONV_BUILD_DIR=/tmp/tconv_build \
  bash scripts/device_switch_ab.sh real_vae_up real_unet3d_up fam04_convt1d_k3_65536 real_hifigan_up 2>&1 | tee $OUT/switch.log
echo "done $((SECONDS-t0)) s"
