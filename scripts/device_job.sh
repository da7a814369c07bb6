#!/usr/bin/env bash
# One call on the GPU machine: install, build, GPU tests, sanitizers, then the benchmark given in
# $TCONV_BENCH_ARGS (if any). Everything is logged under $OUT (the device tool brings it back).
# Usage: OUT=/some/dir TCONV_COMMIT=<sha> bash scripts/device_job.sh [pytest args...]
# (the GPU machine gets the tree without .git: pass the commit so bench JSON records it)
set -uo pipefail
export PYTHONUNBUFFERED=1
export TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}"
export TCONV_BUILD_DIR="${TCONV_BUILD_DIR:-/tmp/tconv_build}"
OUT="${OUT:-/tmp/tconv_out}"
mkdir -p "$OUT"
step() { echo; echo "=== $* ($(date +%T))"; }

step gpu
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.used --format=csv | tee "$OUT/gpu.txt"
step install
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
step build
python3 -m tconv build --break-lock 2>&1 | tee "$OUT/build.log" || { echo BUILD FAILED; exit 1; }
python3 -m tconv info 2>&1 | tee "$OUT/info.txt"
step pytest
python3 -m pytest -q -rfE --maxfail=40 -p no:cacheprovider "${@:-tests}" 2>&1 | tee "$OUT/pytest.log" | tail -40
if [ "${TCONV_SANITIZE:-1}" = "1" ]; then
  step sanitizer
  for tool in memcheck racecheck; do
    echo "\$ compute-sanitizer --tool $tool python3 tests/sanitize_small.py" | tee "$OUT/sanitizer_$tool.log"
    compute-sanitizer --tool "$tool" python3 tests/sanitize_small.py 2>&1 | tee -a "$OUT/sanitizer_$tool.log" | tail -4
  done
fi
if [ -n "${TCONV_BENCH_ARGS:-}" ]; then
  step bench
  python3 -m tconv bench $TCONV_BENCH_ARGS --out "$OUT" 2>&1 | tee "$OUT/bench.log" | tail -60
fi
step done
