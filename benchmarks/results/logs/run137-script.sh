#!/usr/bin/env bash
# Run 137 (session 20): the forward over x strips (tconv_igemm_strip_forward_kernel): HiFi-GAN's forward as one
# wgmma GEMM per line with M = C_out s rows (co, r), N = 256 output rows, K = (tap, input channel), x transposed
# into 16-byte channel quads in shared memory so a tap is a descriptor row offset. Same tile and pipeline as the
# grad_input strip kernel (306 TF/s), with scalar x loads (4 per 16-byte K group) instead of float4 strip loads.
# Prediction: ~250-300 TF/s, HiFi-GAN forward 3.67 -> ~1.9-2.2 ms (the W fold on the gather tile: 150 TF/s).
# Build, the strip GPU tests (incl. the new forward-only grid and the profiler check), memcheck/racecheck,
# HiFi-GAN's kernels, then the HiFi-GAN bench.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > $OUT/build.log 2>&1 || { tail -40 $OUT/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip" > $OUT/pytest.log 2>&1; tail -12 $OUT/pytest.log | grep -v "^  \|Warn\|^$" | tail -8
python3 scripts/kernel_breakdown.py real_hifigan_up --precision tf32 --iters 3 2>&1 | grep -v Warn | head -6 | tee $OUT/breakdown.txt
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -2 $OUT/racecheck.log
if grep -q "strip_forward_kernel" $OUT/breakdown.txt; then
  TCONV_COMMIT=${VARIANT_SHA:-unknown} timeout $((570-SECONDS)) python3 -m tconv bench real_hifigan_up --precision tf32 \
    --no-compile --runs 20 --warmup 3 --out $OUT/b > $OUT/bench.log 2>&1; tail -6 $OUT/bench.log
fi
echo "done $((SECONDS-t0)) s"
