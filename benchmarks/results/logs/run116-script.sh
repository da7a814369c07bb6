#!/usr/bin/env bash
# Run 116 (session 17): debd706, resume the TF32 suite of run 115.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1
export TCONV_COMMIT=debd706e0a29c8e29d4f081f780c895a1d9b3c45
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1
t0=$SECONDS
python3 -m tconv build > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
cp benchmarks/results/bench_20261124-201519_h200.json "$OUT/"
python3 -m tconv bench --suite all --precision tf32 --no-compile --runs 20 --warmup 3 \
  --time-budget $((560-SECONDS-40)) --resume "$OUT/bench_20261124-201519_h200.json" > "$OUT/bench.log" 2>&1
tail -4 "$OUT/bench.log"
echo "done $((SECONDS-t0)) s"
