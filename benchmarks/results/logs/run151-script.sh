#!/usr/bin/env bash
# Run 151 (session 21): "auto" takes the unit-stride strip forward from a K loop of 800 (StripAutoRule, from run 150).
# Build, the strip GPU tests (incl. test_unit_stride_forward_where_planned), then `tconv bench` TF32 on the seven
# shapes the rule moves (L1-68, L2-61, fam02, fam03, fam05, fam06, fam07).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip or unit_stride" > $OUT/pytest.log 2>&1; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
TCONV_COMMIT=${VARIANT_SHA:-unknown} timeout $((590-SECONDS+t0)) python3 -m tconv bench l1_68_convt3d_square_input_asym_kernel \
  l2_61_convt3d_relu_groupnorm fam02_convt3d_k3x5x7_16x32x64 fam03_convt3d_k3_64x64x64 fam05_convt2d_k3x7_512x512 \
  fam06_convt2d_k3x5_128x256 fam07_convt3d_k3_96x96x96 \
  --precision tf32 --no-compile --runs 20 --warmup 3 --out $OUT/b > $OUT/bench.log 2>&1; tail -12 $OUT/bench.log
echo "done $((SECONDS-t0)) s"
