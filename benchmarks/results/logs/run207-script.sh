#!/usr/bin/env bash
# Runs 207- (session 31): the bf16 suite (`tconv bench --suite all --precision bf16`) with fp16/bf16 on the
# unit-stride form on k16 MMAs (run 206) and its rule (StripAutoRule::unit_stride_forward_min_k(2) = 288), resumed across calls.
# The first call also runs the unit-stride tests (tf32/fp16/bf16) and the planning test at the build.
# BUDGET: seconds from the call's start after which no new row starts (a row can run ~60 s past it).
# First call: COMMIT=<sha> BUDGET=480 bash run207.sh
# Next calls: COMMIT=<sha> BUDGET=520 RESUME=<the JSON, copied into the repository> bash run207.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv digest
if [ -z "${RESUME:-}" ]; then
  timeout 90 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "unit_stride" \
    > $OUT/pytest_unit_stride.log 2>&1
  echo "unit-stride tests rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest_unit_stride.log | tail -6
  resume=""
else
  resume="--resume $PWD/$RESUME"
fi
mkdir -p /tmp/suite
timeout $((590 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision bf16 --no-compile --runs 20 \
  --warmup 3 --time-budget $((BUDGET - (SECONDS - t0))) $resume --out /tmp/suite > /tmp/suite/bench.log 2>&1
echo "bench rc $? (3: rows left)"
if [ -n "${RESUME:-}" ]; then cp $PWD/$RESUME $OUT/; cp ${RESUME%.json}.png $OUT/ 2>/dev/null; else cp /tmp/suite/bench_*.json $OUT/; fi
cp /tmp/suite/bench.log $OUT/bench_$(date +%H%M%S).log
grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -30
echo "done $((SECONDS-t0)) s"
