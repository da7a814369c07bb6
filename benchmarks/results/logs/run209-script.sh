#!/usr/bin/env bash
# Run 209 (session 31): the whole GPU test directory at the final kernel sources (6393fc8: fp16/bf16 on the
# unit-stride form with k16 MMAs; "auto" now routes 16-bit stride-1 calls with W kernels 3/5/7 and K >= 288 there,
# so every bf16/fp16 test of such shapes runs it).
# Usage: COMMIT=<sha> bash run209.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest
timeout $((590 - (SECONDS - t0))) python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
echo "pytest rc $?"; grep -E "passed|failed|Error" $OUT/pytest.log | tail -12
echo "done $((SECONDS-t0)) s"
