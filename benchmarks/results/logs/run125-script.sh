#!/usr/bin/env bash
# Run 125 (session 18): f9c57c5 (grad_input's strip kernel). TF32 suite, resumed in run 126.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1
export TCONV_COMMIT=f9c57c506ee80e81ba7166f1db690888c8b370bd
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1
t0=$SECONDS
python3 -m tconv build > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv bench --suite all --precision tf32 --no-compile --runs 20 --warmup 3 \
  --time-budget $((560-SECONDS-40)) --out "$OUT/b" > "$OUT/bench.log" 2>&1
tail -5 "$OUT/bench.log"; ls "$OUT/b"
echo "done $((SECONDS-t0)) s"
