#!/usr/bin/env bash
# Run 328: where the TMA gather could go next: HiFi-GAN's TF32 forward (K 2 x 512 per phase, below the K >= 2048 rule)
# under "igemm_tma" against "auto" (the strip kernels) in one process; DCGAN as the control.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
(cd scripts && timeout 120 python3 quick_timing.py real_hifigan_up real_dcgan_up --precision tf32 \
  --algorithm auto igemm_tma --runs 20 --json "$OUT/quick.json" 2>&1 | tee "$OUT/quick.log")
echo "total $(( $(date +%s) - start )) s"
