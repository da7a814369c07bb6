#!/usr/bin/env bash
# Run 117 (session 17): debd706: whole GPU test directory, memcheck and racecheck.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1
t0=$SECONDS
python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 230 python3 -m pytest -q -rfE -p no:cacheprovider tests > "$OUT/pytest.log" 2>&1; tail -3 "$OUT/pytest.log"
echo "tests $((SECONDS-t0)) s"
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > "$OUT/memcheck.log" 2>&1; tail -2 "$OUT/memcheck.log"
timeout $((590-SECONDS)) compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > "$OUT/racecheck.log" 2>&1
tail -2 "$OUT/racecheck.log"
echo "done $((SECONDS-t0)) s"
