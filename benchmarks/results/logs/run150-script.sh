#!/usr/bin/env bash
# Run 150 (session 21): the unit-stride strip forward's bias loaded once per thread before the stores (was one load
# per store). Build, the strip GPU tests, memcheck, racecheck, scripts/unit_stride_sweep.py (its calls carry a bias).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip or hifigan" > $OUT/pytest.log 2>&1; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -15
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 150 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -1 $OUT/racecheck.log
echo "tests done $((SECONDS-t0)) s"
timeout $((580 - SECONDS + t0)) python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep.json 2>&1 | tee $OUT/sweep.log | tail -14
echo "done $((SECONDS-t0)) s"
