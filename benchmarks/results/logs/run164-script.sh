#!/usr/bin/env bash
# Run 164 (session 23): the working tree = benchmarks/results/logs/session23-persistent_unit_stride.patch on 1407dbc (see
# RUNS.md): the unit-stride forward (and grad_input through it) with persistent blocks for tiles of up to 64 channels.
# Build, the strip/unit-stride/HiFi-GAN GPU tests (with the new many-tile cases), memcheck and racecheck (with the
# new persistent sanitizer calls), the sweep persistent and not (TCONV_UNIT_STRIDE_PERSISTENT=0, same build), then
# `tconv bench` on L1-68 and L2-61 as far as the call goes.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip or unit_stride or hifigan" > $OUT/pytest.log 2>&1; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
timeout 60 python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep.json > $OUT/sweep.log 2>&1
echo "--- TCONV_UNIT_STRIDE_PERSISTENT=0" >> $OUT/sweep.log
TCONV_UNIT_STRIDE_PERSISTENT=0 timeout 60 python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep_off.json >> $OUT/sweep.log 2>&1
cut -c1-200 $OUT/sweep.log
echo "sweeps $((SECONDS-t0)) s"
timeout 70 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 130 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -1 $OUT/racecheck.log
echo "sanitizers $((SECONDS-t0)) s"
left=$((540 - SECONDS + t0))
if [ $left -gt 50 ]; then
  TCONV_COMMIT="$(git rev-parse --short HEAD)+persistent-patch" timeout $left python3 -m tconv bench \
    l1_68_convt3d_square_input_asym_kernel l2_61_convt3d_relu_groupnorm --precision tf32 --no-compile --runs 20 \
    --warmup 3 --out /tmp/b > $OUT/bench.log 2>&1; grep -E "^\[" $OUT/bench.log; cp /tmp/b/*.json $OUT/ 2>/dev/null
fi
echo "done $((SECONDS-t0)) s"
