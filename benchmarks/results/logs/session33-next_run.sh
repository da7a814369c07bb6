#!/usr/bin/env bash
# Prepared in session 33 for the next session's first call (the three-part build of bdcfbd7 has not run on a GPU):
#  1. the build, timed (predicted ~90-120 s against 254-273 s as one unit; "build N s" below),
#  2. the whole GPU test directory (run 217 at 00b6783: 9588 passed, 189 s on an H100), so every kernel of every
#     part loads and runs,
#  3. fam04 in TF32 through `tconv bench` (its cuDNN-benchmark child ran out of memory in run 219; the cache fix of
#     7bf0c66 ran fam01's in run 222, and fam04 was cut off).
# Issue the next call at once, on the warm machine, to keep the build (run 218: 8 s).
# Usage: COMMIT=<sha> bash benchmarks/results/logs/session33-next_run.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
cp /tmp/build.log $OUT/build.log
timeout 300 python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
echo "pytest rc $? ($((SECONDS-t0)) s)"; grep -E "passed|failed|Error" $OUT/pytest.log | tail -12
mkdir -p /tmp/b
timeout $((580 - (SECONDS - t0))) python3 -m tconv bench fam04_convt1d_k3_65536 --precision tf32 --no-compile \
  --runs 20 --warmup 3 --out /tmp/b > $OUT/bench.log 2>&1
echo "bench rc $?"; cp /tmp/b/bench_*.json $OUT/ 2>/dev/null; grep -E "^\[" $OUT/bench.log | cut -c1-220
echo "done $((SECONDS-t0)) s"
