#!/usr/bin/env bash
# Run 168 (session 24): the whole GPU test directory at 2de440d (the W fold at any stride, "auto"'s new fold rule),
# then memcheck of sanitize_small.py if the call has time left.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout $((470-SECONDS+t0)) python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
echo "pytest rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -12
echo "tests $((SECONDS-t0)) s"
left=$((480-SECONDS+t0))
[ $left -gt 50 ] && timeout $left compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1 && tail -1 $OUT/memcheck.log
echo "done $((SECONDS-t0)) s"
