#!/usr/bin/env bash
# Run 130 (session 19): grad_weight over grad_output strips, both operands by descriptor (run 129's patch, never run),
# A/B of the strips' core-matrix spacing: 144 bytes (conflict-free transposed stores, default) vs 128
# (TCONV_DEV_GW_PAD=0). Build, the strip GPU tests, memcheck/racecheck, HiFi-GAN's kernels and fwd+bwd.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > $OUT/build.log 2>&1 || { tail -40 $OUT/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -x -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip" > $OUT/pytest.log 2>&1; tail -15 $OUT/pytest.log
echo "tests $((SECONDS-t0)) s"
for pad in 1 0; do
  echo "== TCONV_DEV_GW_PAD=$pad"
  TCONV_DEV_GW_PAD=$pad python3 scripts/kernel_breakdown.py real_hifigan_up --precision tf32 --iters 3 2>&1 | grep -v Warn | head -8
  TCONV_DEV_GW_PAD=$pad python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --algorithm auto igemm_phase_split --runs 20 2>&1 | tail -2
done
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -2 $OUT/racecheck.log
echo "done $((SECONDS-t0)) s"
