#!/usr/bin/env bash
# Run 235: the exact fp32 suite's rows 12-22 at 83bc7bd (run 234 measured rows 1-11 before the hold ended),
# resumed from the committed file on a fresh machine.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/fp32 && cp benchmarks/results/bench_20261126-140927_h100-80gb-hbm3.json /tmp/fp32/
left=$(( 570 - (SECONDS - t0) ))
timeout $((left + 20)) python3 -m tconv bench --suite all --precision fp32 --no-compile --runs 20 --warmup 3 \
  --time-budget $left --resume /tmp/fp32/bench_20261126-140927_h100-80gb-hbm3.json --out /tmp/fp32 > /tmp/fp32/bench.log 2>&1
echo "bench rc $? (3: rows left)"
cp /tmp/fp32/bench_20261126-140927_h100-80gb-hbm3.* /tmp/fp32/bench.log $OUT/
grep -E "^\[" /tmp/fp32/bench.log | cut -c1-200
echo "done $((SECONDS-t0)) s"
