#!/usr/bin/env bash
# Run 157 (session 22): 4f014a9 (32-bit wgmma descriptors in the strip kernels, the unit-stride forward's 32-bit row
# decode, "auto" taking it from K 640). Build, the whole GPU test directory, then `tconv bench` in TF32 on the rows
# that run the unit-stride forward under "auto" (now fam11 too) and HiFi-GAN (the 1D strip kernels).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -12
echo "tests $((SECONDS-t0)) s"
TCONV_COMMIT=4f014a9 timeout $((588-SECONDS+t0)) python3 -m tconv bench l1_68_convt3d_square_input_asym_kernel \
  l2_61_convt3d_relu_groupnorm fam03_convt3d_k3_64x64x64 fam07_convt3d_k3_96x96x96 fam06_convt2d_k3x5_128x256 \
  fam11_convt2d_k3x7_p1x3_512x1024 fam05_convt2d_k3x7_512x512 fam02_convt3d_k3x5x7_16x32x64 real_hifigan_up \
  --precision tf32 --no-compile --runs 20 --warmup 3 --out $OUT/b > $OUT/bench.log 2>&1; tail -14 $OUT/bench.log
echo "done $((SECONDS-t0)) s"
