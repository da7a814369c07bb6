#!/usr/bin/env bash
# Runs 188- (session 29): `tconv bench --suite all` in TF32, exact fp32 and bf16 at one commit, resumed across calls
# on the warm machine. No suite ran since fa4b6c3 (TF32) and 9ca2807 (exact fp32, bf16). The first call also runs
# the shifted-x tests at the build (the flat grad_output map is now the default).
# BUDGET: seconds from the call's start after which no new row starts (a row can run ~60 s past it).
# First call: COMMIT=<sha> BUDGET=480 bash run188.sh
# Next calls: COMMIT=<sha> BUDGET=520 RESUME=<the JSON, copied into the repository> bash run188.sh
# REMAINING="stem:prec,prec ...": what to run as separate files if the resume is refused (another card).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv digest
if [ -z "${RESUME:-}" ]; then
  timeout 60 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "shifted_x" \
    > $OUT/pytest_shifted_x.log 2>&1
  echo "shifted-x tests rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest_shifted_x.log | tail -4
  resume=""
else
  resume="--resume $PWD/$RESUME"
fi
mkdir -p /tmp/suite
timeout $((590 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision tf32 fp32 bf16 --no-compile --runs 20 \
  --warmup 3 --time-budget $((BUDGET - (SECONDS - t0))) $resume --out /tmp/suite > /tmp/suite/bench.log 2>&1
rc=$?; echo "bench rc $rc (3: rows left)"
if [ $rc = 2 ] && [ -n "${REMAINING:-}" ]; then
  # The resume refused (another card: the file's gpu differs). The rows left run as a separate file of this card.
  grep "cannot resume" /tmp/suite/bench.log; RESUME=""
  for job in $REMAINING; do  # stem:precision[,precision]
    timeout $((590 - (SECONDS - t0))) python3 -m tconv bench ${job%%:*} --precision $(echo ${job#*:} | tr , " ") --no-compile --runs 20 \
      --warmup 3 --out /tmp/suite >> /tmp/suite/bench.log 2>&1
    echo "bench $job rc $?"
  done
fi
if [ -n "${RESUME:-}" ]; then cp $PWD/$RESUME $OUT/; cp ${RESUME%.json}.png $OUT/ 2>/dev/null; else cp /tmp/suite/bench_*.json $OUT/; fi
cp /tmp/suite/bench.log $OUT/bench_$(date +%H%M%S).log
grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -40
echo "done $((SECONDS-t0)) s"
