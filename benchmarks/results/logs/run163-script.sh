#!/usr/bin/env bash
# Run 163 (session 23): 68e7922 (the 1D strip kernels' shared copy/issue helpers and wgmma_tf32_shared<256>: ptxas
# registers unchanged; the auto-rule test at K 576 and for grad_input). Build, the strip/unit-stride/HiFi-GAN GPU
# tests, memcheck, racecheck, the unit-stride sweep (its HiFi-GAN line times the two 1D strip kernels the refactor
# touched: run 159 had forward 2.096 ms, grad_input 1.855), then `tconv bench --suite core` in bf16 and exact fp32
# (last measured at 9ca2807) as far as the call goes.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=68e7922
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip or unit_stride or hifigan" > $OUT/pytest.log 2>&1; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -1 $OUT/racecheck.log
echo "correctness $((SECONDS-t0)) s"
timeout 60 python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep.json > $OUT/sweep.log 2>&1; cat $OUT/sweep.log | cut -c1-200
echo "sweep $((SECONDS-t0)) s"
python3 -m tconv bench --suite core --precision bf16 fp32 --no-compile --runs 20 --warmup 3 \
  --time-budget $((520-SECONDS+t0)) --out /tmp/bench_core > $OUT/bench.log 2>&1
echo "bench rc $?"; cp /tmp/bench_core/bench_*.json $OUT/; tail -14 $OUT/bench.log | cut -c1-250
echo "done $((SECONDS-t0)) s"
