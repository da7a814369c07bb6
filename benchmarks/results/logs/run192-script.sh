#!/usr/bin/env bash
# Run 192 (session 29): session 28's review findings mended in device code: one helper stores the ordered split-K sums
# 8 at a time for both the rows and the shifted-x kernels (store_weight_sums_by_eights), and one helper each for the
# warp-specialized kernels' barrier setup and the producer's empty wait. No change in what is computed; the ptxas
# table is rewritten with it. Build; the grad_weight tests of both kernels (rows, shifted-x, ordered split-K);
# memcheck of sanitize_small.py; racecheck and synccheck of the wgmma grad_weight kernels; tconv bench of L1-68
# (shifted-x) and DCGAN (rows, ordered) in TF32, to set beside the f0bb6cb suite's rows (runs 188-191, another H200
# machine: an indication, not a same-build A/B).
# Usage: COMMIT=<sha from the development machine> bash run192.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv digest
timeout 90 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_grad_weight_ordered_gpu.py \
  tests/test_conv_transpose_gpu.py -k "ordered or grad_weight_rows or shifted_x" > $OUT/pytest.log 2>&1
echo "grad_weight tests rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -6
# The rows kernel's first form (no warp roles) stores through the same helper.
TCONV_GRAD_WEIGHT_ROWS_SPECIALIZED=0 timeout 40 python3 -m pytest -q -rfE -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py -k "grad_weight_rows" > $OUT/pytest_rows_unspecialized.log 2>&1
echo "rows tests, unspecialized form, rc $?"; tail -1 $OUT/pytest_rows_unspecialized.log
echo "t $((SECONDS-t0)) s"
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1
echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
for tool in racecheck synccheck; do
  timeout 45 compute-sanitizer --tool $tool --kernel-name kns=grad_weight_wgmma python3 tests/sanitize_small.py \
    > $OUT/$tool.log 2>&1
  echo "$tool (grad_weight_wgmma kernels) rc $?"; tail -1 $OUT/$tool.log
done
echo "t $((SECONDS-t0)) s"
mkdir -p /tmp/bench
timeout $((480 - (SECONDS - t0))) python3 -m tconv bench l1_68_convt3d_square_input_asym_kernel real_dcgan_up \
  --precision tf32 --no-compile --runs 20 --warmup 3 --out /tmp/bench > $OUT/bench.log 2>&1
echo "bench rc $?"; cp /tmp/bench/bench_*.json $OUT/ 2>/dev/null; grep -E "^\[" $OUT/bench.log | cut -c1-220
echo "done $((SECONDS-t0)) s"
