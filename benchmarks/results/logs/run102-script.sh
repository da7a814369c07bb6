#!/usr/bin/env bash
# Run 102 (session 16): build, the warp-specialized gather tile's GPU tests, switch A/B, then the TF32 GPU tests.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > "$OUT/pip.log" 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$OUT/gpu.txt"
t0=$SECONDS
python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 120 python3 -m pytest -x -q -rfE -p no:cacheprovider tests/test_gather_specialized_gpu.py > "$OUT/pytest_ws.log" 2>&1
tail -15 "$OUT/pytest_ws.log"
echo "ws tests $((SECONDS-t0)) s"
OUT="$OUT/sw" SWITCH=TCONV_GATHER_SPECIALIZED VALUES="1 0" ROUNDS=1 PRECISIONS="tf32" \
  timeout 220 bash scripts/device_switch_ab.sh l2_61_convt3d_relu_groupnorm real_dcgan_up real_hifigan_up \
  fam06_convt2d_k3x5_128x256 real_vae_up real_unet3d_up fam07_convt3d_k3_96x96x96 fam01_convt2d_k3_1024x1024 \
  l1_68_convt3d_square_input_asym_kernel 2>&1 | tee "$OUT/switch_ws.log" | grep -v Warn
echo "switch $((SECONDS-t0)) s"
timeout $((570-SECONDS)) python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "tf32" > "$OUT/pytest_tf32.log" 2>&1
tail -6 "$OUT/pytest_tf32.log"
echo "done $((SECONDS-t0)) s"
