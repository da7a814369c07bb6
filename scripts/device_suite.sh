#!/usr/bin/env bash
# One GPU call for a full measured run: build + GPU tests, then `tconv bench` per suite and
# `tconv verify` in exact-fp32 mode, each step bounded. Everything lands in one tarball under $OUT
# (refreshed after every step, so a call cut off at its time limit still returns what finished).
# Usage: OUT=dir TCONV_COMMIT=<sha> BENCH_SUITES="core family real" BENCH_PRECISIONS="tf32 fp32" \
#        VERIFY_FP32="family real" bash scripts/device_suite.sh   (split suites over calls to stay under 10 min)
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
WORK="$(mktemp -d)"
mkdir -p "$OUT"
pack() { tar czf "$OUT/results.tgz" -C "$WORK" . 2>/dev/null; }
export PYTHONUNBUFFERED=1
OUT="$WORK" TCONV_SANITIZE="${TCONV_SANITIZE:-0}" bash scripts/device_job.sh tests 2>&1 | tail -8
pack
for suite in ${BENCH_SUITES:-core family real}; do
  echo "=== bench $suite ($(date +%T))"
  timeout "${BENCH_TIMEOUT:-400}" python3 -m tconv bench --suite "$suite" --precision ${BENCH_PRECISIONS:-tf32} \
    --no-compile --runs 20 --warmup 3 --out "$WORK" 2>&1 | tee "$WORK/bench_$suite.log" | grep -E "^\[|results|Error|error" 
  pack
done
for suite in ${VERIFY_FP32:-}; do
  for stem in $(python3 -c "import sys; sys.path.insert(0, 'problems'); import suites; print(' '.join(getattr(suites, '$suite'.upper())))"); do
    timeout 120 python3 -m tconv verify "problems/$stem.py" --precision fp32 --trials 1 --json "$WORK/verify_fp32_$stem.json" \
      > "$WORK/verify_fp32_$stem.log" 2>&1
    echo "verify fp32 $stem: exit $?"
    pack
  done
done
echo "=== done ($(date +%T))"
