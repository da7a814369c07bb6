#!/usr/bin/env bash
# Run 149 (session 21): "auto" takes the unit-stride strip forward at >= 27 K stages a block (StripAutoRule), x
# registers two stages ahead. Build, the whole GPU test directory, memcheck, racecheck, then `tconv bench` TF32 on the
# five shapes the rule moves (L1-68, L2-61, fam02, fam03, fam07).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 240 python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -12
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
echo "tests done $((SECONDS-t0)) s"
TCONV_COMMIT=${VARIANT_SHA:-unknown} timeout $((590-SECONDS+t0)) python3 -m tconv bench l1_68_convt3d_square_input_asym_kernel \
  l2_61_convt3d_relu_groupnorm fam02_convt3d_k3x5x7_16x32x64 fam03_convt3d_k3_64x64x64 fam07_convt3d_k3_96x96x96 \
  --precision tf32 --no-compile --runs 20 --warmup 3 --out $OUT/b > $OUT/bench.log 2>&1; tail -12 $OUT/bench.log
echo "done $((SECONDS-t0)) s"
