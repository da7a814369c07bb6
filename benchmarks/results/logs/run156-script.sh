#!/usr/bin/env bash
# Run 156 (session 22): the unit-stride forward's row decode in 32 bits (line_of: run 155 counted ~3500 instructions
# per warp and block of 64-bit division before and after the K loop, a quarter of L1-68's samples) and its stores
# through one stepped pointer; session 21's 16-byte-piece patch dropped. Build, the strip GPU tests,
# unit_stride_sweep.py, HiFi-GAN and L1-68 forward+backward, memcheck, racecheck, SASS counters of L1-68's
# unit-stride forward.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip or unit_stride or hifigan" > $OUT/pytest.log 2>&1; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
echo "tests $((SECONDS-t0)) s"
timeout 60 python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep.json > $OUT/sweep.log 2>&1; cat $OUT/sweep.log
timeout 90 python3 scripts/quick_timing.py real_hifigan_up l1_68_convt3d_square_input_asym_kernel --precision tf32 --runs 10 2>&1 | grep -v Warn | tail -2
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -1 $OUT/racecheck.log
echo "sanitizers $((SECONDS-t0)) s"
left=$((580 - SECONDS + t0))
if [ $left -gt 60 ]; then
  timeout $left ncu --clock-control none -k "regex:unit_stride_forward" --launch-skip 0 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section InstructionStats --import-source no \
    --page source --print-source sass --csv \
    python3 scripts/quick_timing.py l1_68_convt3d_square_input_asym_kernel --precision tf32 --runs 1 --warmup 1 \
    2> $OUT/src_l1_68.err | gzip > $OUT/src_l1_68.csv.gz
  tail -2 $OUT/src_l1_68.err
fi
echo "done $((SECONDS-t0)) s"
