#!/usr/bin/env bash
# Run 153 (session 21): load_channel_quad with one predicate per whole quad (the strip forwards' x loads; run 152's ncu
# counted ~650 instructions per warp and K stage in the unit-stride forward, 0.44 issued per scheduler cycle), two
# wgmma groups in flight kept. Build, the strip GPU tests, memcheck, racecheck, scripts/unit_stride_sweep.py (against
# run 152's "in flight 2" column; HiFi-GAN's 1D strip forward shares the loader).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip or unit_stride or hifigan" > $OUT/pytest.log 2>&1; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -1 $OUT/racecheck.log
echo "tests done $((SECONDS-t0)) s"
timeout $((585 - SECONDS + t0)) python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep.json 2>&1 | tee $OUT/sweep.log | tail -13
echo "done $((SECONDS-t0)) s"
