#!/usr/bin/env bash
# Run 105 (session 16): b216b0b on the warm machine of run 104: resume the TF32 suite, then the fixed kernel-name test.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1
export TCONV_COMMIT=b216b0b6de2272165ba7c71043c3be2cae1dc3c8
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1
t0=$SECONDS
python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "build $((SECONDS-t0)) s"
cp benchmarks/results/bench_20261124-163846_h200.json "$OUT/"
python3 -m tconv bench --suite all --precision tf32 --no-compile --runs 20 --warmup 3 \
  --time-budget 380 --resume "$OUT/bench_20261124-163846_h200.json" > "$OUT/bench.log" 2>&1
tail -4 "$OUT/bench.log"
echo "bench $((SECONDS-t0)) s"
timeout 60 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_specialized_gpu.py -k what_runs > "$OUT/pytest_names.log" 2>&1
tail -2 "$OUT/pytest_names.log"
echo "done $((SECONDS-t0)) s"
