#!/usr/bin/env bash
# Run 152 (session 21): the unit-stride strip forward with two wgmma groups in flight (run_strip_pipeline's
# kInFlight = 2: the slot refilled is the one read three iterations earlier) against one
# (TCONV_UNIT_STRIDE_IN_FLIGHT=1), in separate processes of one build. Build, the strip GPU tests, memcheck,
# racecheck, scripts/unit_stride_sweep.py for both, then ncu (speed of light, warp states, memory, scheduler) on
# L1-68's unit-stride forward.
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
timeout 60 python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep_inflight2.json > $OUT/sweep.log 2>&1
echo "--- TCONV_UNIT_STRIDE_IN_FLIGHT=1" >> $OUT/sweep.log
TCONV_UNIT_STRIDE_IN_FLIGHT=1 timeout 60 python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep_inflight1.json >> $OUT/sweep.log 2>&1
cat $OUT/sweep.log
timeout $((585 - SECONDS + t0)) ncu --clock-control none -k "regex:unit_stride_forward" --launch-skip 0 --launch-count 1 \
  --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
  --section SchedulerStats python3 scripts/quick_timing.py l1_68_convt3d_square_input_asym_kernel --precision tf32 \
  --runs 1 --warmup 1 > $OUT/ncu_l1_68.txt 2>&1
grep -E "Duration|Throughput|Warp Cycles Per Issued|No Eligible|Eligible Warps|Bank|Stall|shared" $OUT/ncu_l1_68.txt | head -30
echo "done $((SECONDS-t0)) s"
