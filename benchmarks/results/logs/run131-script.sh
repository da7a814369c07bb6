#!/usr/bin/env bash
# Run 131 (session 19): grad_weight over grad_output strips with a cp.async raw ring (6 stages of latency cover for
# s8 T2) feeding the rounded wgmma slots. Build, the strip GPU tests, memcheck/racecheck, HiFi-GAN's kernels and
# fwd+bwd, then the grid/random GPU tests.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > $OUT/build.log 2>&1 || { tail -40 $OUT/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -x -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip" > $OUT/pytest.log 2>&1; tail -15 $OUT/pytest.log
echo "tests $((SECONDS-t0)) s"
python3 scripts/kernel_breakdown.py real_hifigan_up --precision tf32 --iters 3 2>&1 | grep -v Warn | head -8
python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --algorithm auto --runs 20 2>&1 | tail -1
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -2 $OUT/racecheck.log
echo "sanitizers $((SECONDS-t0)) s"
timeout $((560-SECONDS)) python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "grid or random or hifigan or graph" > $OUT/pytest_more.log 2>&1; tail -6 $OUT/pytest_more.log
echo "done $((SECONDS-t0)) s"
