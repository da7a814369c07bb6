#!/usr/bin/env bash
# A kernel-change check in one GPU call: build, the GPU tests selected by $TESTS (a pytest -k
# expression; all GPU tests when empty), then tconv-only timings (scripts/quick_timing.py) of
# $PROBLEMS in $PRECISIONS with $ALGORITHMS (default auto; TIMING_ENV="VAR=value ..." set for the timings only, e.g.
# TCONV_UNIT_STRIDE_MMA=0 so that "auto" times the other kernels), with SANITIZE=1 compute-sanitizer memcheck and
# racecheck of tests/sanitize_small.py (SANITIZE_KERNELS=name: only kernels whose names contain it are checked), and
# verified `tconv bench` rows of $BENCH_PROBLEMS in $BENCH_PRECISIONS (default bf16). Logs land in $OUT (few files:
# the device tool returns at most 8).
# Usage: OUT=dir TESTS="igemm or grid" PROBLEMS="l1_68_... real_hifigan_up" [SANITIZE=1] bash scripts/device_check.sh
# Run the sanitizers here rather than after the script: TCONV_BUILD_DIR is set here, and a sanitizer started
# without it rebuilds the extension under compute-sanitizer (run 72 lost its sanitizer step so). racecheck of
# sanitize_small takes over 45 s on an H200 (run 76 cut it off there).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}" TCONV_BUILD_DIR="${TCONV_BUILD_DIR:-/tmp/tconv_build}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; echo BUILD FAILED; exit 1; }
tail -2 "$OUT/build.log"
if [ -n "${PROBLEMS:-}" ] && [ "${TIMING_FIRST:-0}" = 1 ]; then
  timeout "${TIMING_TIMEOUT:-200}" env ${TIMING_ENV:-} python3 scripts/quick_timing.py $PROBLEMS --precision ${PRECISIONS:-tf32} --algorithm ${ALGORITHMS:-auto} --runs ${RUNS:-10} --json "$OUT/quick.json" 2>&1 | tee "$OUT/quick.log"
fi
if [ "${TESTS-x}" != "none" ]; then
  timeout "${TEST_TIMEOUT:-330}" python3 -m pytest -q -rfE -x --maxfail=10 -p no:cacheprovider tests/test_conv_transpose_gpu.py ${TESTS:+-k "$TESTS"} 2>&1 | tee "$OUT/pytest.log" | tail -25
fi
if [ -n "${PROBLEMS:-}" ] && [ "${TIMING_FIRST:-0}" != 1 ]; then
  timeout "${TIMING_TIMEOUT:-200}" env ${TIMING_ENV:-} python3 scripts/quick_timing.py $PROBLEMS --precision ${PRECISIONS:-tf32} --algorithm ${ALGORITHMS:-auto} --runs ${RUNS:-10} --json "$OUT/quick.json" 2>&1 | tee "$OUT/quick.log"
fi
if [ "${SANITIZE:-0}" = 1 ]; then
  for tool in memcheck racecheck; do
    timeout "${SANITIZE_TIMEOUT:-150}" compute-sanitizer --tool "$tool" ${SANITIZE_KERNELS:+--kernel-name "kns=$SANITIZE_KERNELS"} \
      python3 tests/sanitize_small.py > "$OUT/$tool.log" 2>&1
    tail -1 "$OUT/$tool.log"
  done
fi
if [ -n "${BENCH_PROBLEMS:-}" ]; then
  timeout "${BENCH_TIMEOUT:-240}" python3 -m tconv bench $BENCH_PROBLEMS --precision ${BENCH_PRECISIONS:-bf16} --no-compile \
    --runs 20 --warmup 3 --out "$OUT/bench" 2>&1 | grep -vE "^\s*$" | tail -8
  rm -f "$OUT"/bench/*.png
fi
