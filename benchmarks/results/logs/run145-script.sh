#!/usr/bin/env bash
# Run 145 (session 20): StripAutoRule without grad_input (run 144: auto's alternative there, the phase split, was
# 5-10x slower than the strip kernel on small shapes). Build, the strip/HiFi-GAN GPU tests (incl. the rewritten
# test_strip_kernels_run_where_planned), memcheck.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip or hifigan" > $OUT/pytest.log 2>&1; tail -12 $OUT/pytest.log | grep -E "passed|failed|Error|assert" | tail -6
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
echo "done $((SECONDS-t0)) s"
