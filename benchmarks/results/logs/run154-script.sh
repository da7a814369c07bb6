#!/usr/bin/env bash
# Run 154 (session 22): session 21's prepared patch, x by 16-byte pieces in the unit-stride forward where lines are
# whole aligned 4-row groups (L1-68, fam06 of the suite), applied. Build, the strip GPU tests (also the first GPU run
# of 3a7df07's shared check_strip_forward), scripts/unit_stride_sweep.py with the pieces and without
# (TCONV_UNIT_STRIDE_VECTOR_X=0, same build), memcheck, racecheck, then the SASS source counters of L1-68's
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
timeout 60 python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep_vector.json > $OUT/sweep.log 2>&1
echo "--- TCONV_UNIT_STRIDE_VECTOR_X=0" >> $OUT/sweep.log
TCONV_UNIT_STRIDE_VECTOR_X=0 timeout 60 python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep_scalar.json >> $OUT/sweep.log 2>&1
cat $OUT/sweep.log
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -1 $OUT/racecheck.log
echo "sanitizers $((SECONDS-t0)) s"
left=$((580 - SECONDS + t0))
if [ $left -gt 60 ]; then
  timeout $left ncu --clock-control none -k "regex:unit_stride_forward" --launch-skip 0 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section InstructionStats --import-source no \
    --page source --print-source sass --csv \
    python3 scripts/quick_timing.py l1_68_convt3d_square_input_asym_kernel --precision tf32 --runs 1 --warmup 1 \
    > $OUT/src_l1_68.csv 2> $OUT/src_l1_68.err
  wc -l $OUT/src_l1_68.csv; tail -2 $OUT/src_l1_68.err
fi
echo "done $((SECONDS-t0)) s"
