#!/usr/bin/env bash
# Runs 217- (session 33): the whole GPU test directory at the commit that lands the 16-bit strip backward (run 215:
# HiFi-GAN bf16 fwd+bwd 7.77 ms with both, 10.80 without the grad_weight, 16.45 without the grad_input), then the
# bf16 suite (`tconv bench --suite all --precision bf16`) with the time left, resumed across calls.
# BUDGET: seconds from the call's start after which no new bench row starts (a row can run ~60 s past it).
# First call: COMMIT=<sha> BUDGET=500 bash run217.sh
# Next calls, issued at once so that the machine is still warm (its /tmp/suite holds the JSON): COMMIT=<sha>
#   BUDGET=540 RESUME=device bash run217.sh; or RESUME=<the JSON, copied into the repository> on a fresh machine.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
if [ -z "${RESUME:-}" ] && [ "${TESTS:-1}" = 1 ]; then
  timeout 260 python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
  echo "pytest rc $? ($((SECONDS-t0)) s)"; grep -E "passed|failed|Error" $OUT/pytest.log | tail -12
  resume=""
elif [ -z "${RESUME:-}" ]; then
  resume=""
elif [ "$RESUME" = device ]; then
  RESUME=$(ls -t /tmp/suite/bench_*.json | head -1); resume="--resume $RESUME"
else
  RESUME=$PWD/$RESUME; resume="--resume $RESUME"
fi
mkdir -p /tmp/suite
timeout $((590 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision ${PREC:-bf16} --no-compile --runs 20 \
  --warmup 3 --time-budget $((BUDGET - (SECONDS - t0))) $resume --out /tmp/suite > /tmp/suite/bench.log 2>&1
echo "bench rc $? (3: rows left)"
if [ -n "${RESUME:-}" ]; then cp $RESUME $OUT/; cp ${RESUME%.json}.png $OUT/ 2>/dev/null; else cp /tmp/suite/bench_*.json $OUT/; fi
cp /tmp/suite/bench.log $OUT/bench_$(date +%H%M%S).log
grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -30
echo "done $((SECONDS-t0)) s"
