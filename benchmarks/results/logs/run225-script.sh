#!/usr/bin/env bash
# Run 225 (session 34): the shifted-x grad_weight widened (TCONV_GRAD_WEIGHT_SHIFTED_X_WIDE, default 1): kernel W in
# groups of up to 5 taps (7 as 4 + 4), C_in in tiles of 32 (any number), >= 16 output channels per group. Run 224's
# breakdown (this session's second call) had the bf16 backward spend most of its time in the widened mma.sync / wgmma
# grad_weight kernels (fam06 6.37 of 9.84 ms, fam02 4.48 of 5.43, fam05 3.67 of 5.80, L2-61 2.92 of 5.07; cuDNN's
# wgrad 1.00 / 0.46 / 0.75 / 0.34), none of which the shifted-x kernel took before.
# Predicted (bf16 grad_weight): fam06 6.4 -> ~1.5-2 ms, L2-61 2.9 -> ~0.8-1.2, fam05 3.7 -> ~1.5, fam02 4.5 -> ~1.5
# (a quarter of its m64 rows used); TF32 gains smaller (half the tensor rate); 1D fam04 possibly a loss (one (kd, kh)
# row for three consumer warpgroups).
# Usage: COMMIT=<sha> bash run225-script.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "shifted_x" \
  > $OUT/pytest_shifted_x.log 2>&1
echo "shifted-x tests rc $? ($((SECONDS-t0)) s)"; grep -E "passed|failed|Error|assert" $OUT/pytest_shifted_x.log | tail -6
P="l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256 fam05_convt2d_k3x7_512x512 fam02_convt3d_k3x5x7_16x32x64
   fam01_convt2d_k3_1024x1024 fam03_convt3d_k3_64x64x64 fam07_convt3d_k3_96x96x96 fam04_convt1d_k3_65536
   fam11_convt2d_k3x7_p1x3_512x1024"
OUT=$OUT SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_WIDE VALUES="1 0" ROUNDS=2 PRECISIONS="bf16 tf32" \
  timeout $((540 - (SECONDS - t0))) bash scripts/device_switch_ab.sh $P > $OUT/switch_wide.log 2>&1
echo "A/B rc $? ($((SECONDS-t0)) s)"; grep -E "fwd" $OUT/switch_wide.log | sed 's/ \+/ /g' | cut -c1-150
echo "done $((SECONDS-t0)) s"
