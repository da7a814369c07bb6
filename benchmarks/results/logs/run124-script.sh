#!/usr/bin/env bash
# Run 124 (session 18): the strip kernel with its grad_output pieces loaded into registers one iteration ahead and
# stored rounded (no cp.async + in-place rounding pass; loop counts compile-time per (s, T)). Build, the strip and
# grad_input GPU tests, memcheck/racecheck, HiFi-GAN's kernels and fwd+bwd (auto vs the phase split).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > $OUT/build.log 2>&1 || { tail -40 $OUT/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "strip or phase_split or g16 or g25 or hifigan or cuda_graph or random_sweep" > $OUT/pytest.log 2>&1; tail -4 $OUT/pytest.log
echo "tests $((SECONDS-t0)) s"
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -2 $OUT/racecheck.log
echo "sanitizers $((SECONDS-t0)) s"
python3 scripts/kernel_breakdown.py real_hifigan_up --precision tf32 --iters 3 2>&1 | grep -v Warn | head -5
python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --algorithm auto igemm_phase_split auto igemm_phase_split --runs 20 2>&1 | tail -4
echo "done $((SECONDS-t0)) s"
