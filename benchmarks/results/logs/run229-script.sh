#!/usr/bin/env bash
# Run 229 (session 34, on run 228's warm machine): memcheck and racecheck of the shifted-x kernels on
# tests/sanitize_small.py (run 228's filter was ill-formed: kns= is the substring key), then the TF32 suite
# (`tconv bench --suite all --precision tf32`) with the time left; RESUME=device continues it on the same machine.
# Usage: COMMIT=<sha> BUDGET=<s> [LIMIT=<s, default 585>] [RESUME=device] [SANITIZE=0] bash run229-script.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
if [ "${SANITIZE:-1}" = 1 ]; then
  for tool in memcheck racecheck; do
    timeout 100 compute-sanitizer --tool $tool --kernel-name kns=shifted_x python3 tests/sanitize_small.py \
      > $OUT/sanitize_$tool.log 2>&1
    echo "$tool (shifted_x kernels) rc $? ($((SECONDS-t0)) s)"; grep -E "SUMMARY" $OUT/sanitize_$tool.log | tail -1
  done
fi
resume=""
if [ "${RESUME:-}" = device ]; then RESUME=$(ls -t /tmp/suite/bench_*.json | head -1); resume="--resume $RESUME"; fi
mkdir -p /tmp/suite
timeout $((${LIMIT:-585} - (SECONDS - t0))) python3 -m tconv bench --suite all --precision tf32 --no-compile --runs 20 \
  --warmup 3 --time-budget $((BUDGET - (SECONDS - t0))) $resume --out /tmp/suite > /tmp/suite/bench.log 2>&1
echo "bench rc $? (3: rows left)"
if [ -n "${RESUME:-}" ]; then cp $RESUME $OUT/; cp ${RESUME%.json}.png $OUT/ 2>/dev/null; else cp /tmp/suite/bench_*.json $OUT/; fi
cp /tmp/suite/bench.log $OUT/bench_$(date +%H%M%S).log
grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -30
echo "done $((SECONDS-t0)) s"
