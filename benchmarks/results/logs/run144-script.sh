#!/usr/bin/env bash
# Run 144 (session 20): StripAutoRule (igemm_config.h): "auto" takes the strip kernels only on grids past run 143's
# bounds (forward >= one block per SM, grad_input and grad_weight >= SMs / 6). Host-side only (no kernel changed).
# Check: the strip GPU tests (the rewritten test_strip_kernels_run_where_planned: all three on 16 x 128 x 1024,
# none on a small line), HiFi-GAN tests, memcheck/racecheck (strip calls now forced), the sweep (auto = the faster of
# strip and GEMM on every shape), and the HiFi-GAN bench (unchanged: its grids are far past the bounds).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip or hifigan or graph" > $OUT/pytest.log 2>&1; tail -12 $OUT/pytest.log | grep -E "passed|failed|Error" | tail -4
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 90 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -2 $OUT/racecheck.log
timeout 150 python3 scripts/strip_sweep.py --runs 10 --json $OUT/strip_sweep.json 2>&1 | grep -v Warn > $OUT/strip_sweep.log; cut -c1-200 $OUT/strip_sweep.log
TCONV_COMMIT=${VARIANT_SHA:-unknown} timeout $((585-SECONDS)) python3 -m tconv bench real_hifigan_up --precision tf32 \
  --no-compile --runs 20 --warmup 3 --out $OUT/b > $OUT/bench.log 2>&1; tail -3 $OUT/bench.log
echo "done $((SECONDS-t0)) s"
