#!/usr/bin/env bash
# Run 172 (session 25): the wgmma grad_weight with one stage's wgmma group in flight (5 stages, copies 3 ahead, two
# A fragment sets) against the synchronous form (TCONV_GRAD_WEIGHT_IN_FLIGHT=0, = fa4b6c3's kernels). Build; the
# packed-taps, forced-igemm grid, ordered split-K and random-sweep tests; memcheck and racecheck of
# sanitize_small.py; a same-build A/B on fam07 (3 taps x 24 channels packed, 48-wide tile), fam03 (3 taps, 48-wide)
# and L2-61 (3 taps, 64-wide); then tconv bench TF32 of those three rows (the only suite rows that run the kernel).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py tests/test_grad_weight_ordered_gpu.py \
  -k "packed_taps or test_grid_forced_igemm or ordered or random_sweep" > $OUT/pytest.log 2>&1
echo "pytest rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
echo "t $((SECONDS-t0)) s"
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -2 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -2 $OUT/racecheck.log
echo "t $((SECONDS-t0)) s"
OUT=/tmp/ab SWITCH=TCONV_GRAD_WEIGHT_IN_FLIGHT VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" \
  timeout 150 bash scripts/device_switch_ab.sh fam07_convt3d_k3_96x96x96 fam03_convt3d_k3_64x64x64 l2_61_convt3d_relu_groupnorm > $OUT/ab.log 2>&1
echo "ab rc $?"
OUT=/tmp/ab SWITCH=TCONV_GRAD_WEIGHT_IN_FLIGHT VALUES="1 0" ROUNDS=1 PRECISIONS="bf16" \
  timeout 70 bash scripts/device_switch_ab.sh fam07_convt3d_k3_96x96x96 l2_61_convt3d_relu_groupnorm >> $OUT/ab.log 2>&1
grep -v "^ " $OUT/ab.log | cut -c1-200
echo "t $((SECONDS-t0)) s"
python3 -m tconv bench fam07_convt3d_k3_96x96x96 fam03_convt3d_k3_64x64x64 l2_61_convt3d_relu_groupnorm --precision tf32 \
  --no-compile --runs 20 --warmup 3 --time-budget $((575-SECONDS+t0)) --out /tmp/bench3 > $OUT/bench.log 2>&1
echo "bench rc $?"; cp /tmp/bench3/bench_*.json $OUT/; tail -6 $OUT/bench.log | cut -c1-220
echo "done $((SECONDS-t0)) s"
