#!/usr/bin/env bash
# Run 133 (session 19): run 131 plus the strip grad_weight kernel stepping its (line, position) cursor per stage instead of
# four 64-bit divisions (run 132: 410 instructions per warp and stage). Build, the strip GPU tests, memcheck/racecheck, HiFi-GAN's kernels and
# fwd+bwd, then the grid/random GPU tests.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > $OUT/build.log 2>&1 || { tail -40 $OUT/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -x -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip" > $OUT/pytest.log 2>&1; tail -15 $OUT/pytest.log
echo "tests $((SECONDS-t0)) s"
python3 scripts/kernel_breakdown.py real_hifigan_up --precision tf32 --iters 3 2>&1 | grep -v Warn | head -8
python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --algorithm auto --runs 20 2>&1 | tail -1
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -2 $OUT/racecheck.log
echo "sanitizers $((SECONDS-t0)) s"
timeout 120 ncu --clock-control none -k "regex:strip_grad_weight" --launch-skip 0 --launch-count 1 --section SpeedOfLight \
  --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum \
  python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --runs 1 --warmup 1 > $OUT/ncu_gw.txt 2>&1
grep -E "Duration|hmma|inst_executed|hit_rate|dram__bytes|L2 Cache Throughput" $OUT/ncu_gw.txt
timeout $((560-SECONDS)) python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "grid or random or hifigan or graph" > $OUT/pytest_more.log 2>&1; tail -6 $OUT/pytest_more.log
echo "done $((SECONDS-t0)) s"
