#!/usr/bin/env bash
# Run 148 (session 21): the unit-stride strip forward with x registers two stages ahead (run_strip_pipeline's
# kDepth = 2), against one (TCONV_UNIT_STRIDE_DEPTH=1, run 147's form) in separate processes of one build; shared
# helpers (tf32_rounded, load_channel_quad, launch_pack, set_strip_forward_operands) in the 1D strip kernels. Build, the
# strip/HiFi-GAN GPU tests, memcheck, racecheck, then scripts/unit_stride_sweep.py at both depths.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip or hifigan" > $OUT/pytest.log 2>&1; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -15
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 150 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -1 $OUT/racecheck.log
echo "tests done $((SECONDS-t0)) s"
timeout $(((580 - SECONDS + t0) / 2)) python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep_depth2.json 2>&1 | tee $OUT/sweep.log | tail -14
echo "--- TCONV_UNIT_STRIDE_DEPTH=1" | tee -a $OUT/sweep.log
TCONV_UNIT_STRIDE_DEPTH=1 timeout $((580 - SECONDS + t0)) python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep_depth1.json 2>&1 | tee -a $OUT/sweep.log | tail -14
echo "done $((SECONDS-t0)) s"
