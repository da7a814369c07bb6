#!/usr/bin/env bash
# Run 170 (session 25): the wgmma grad_weight's 48-wide C_in tile (33-48 input channels per group) with the packed
# taps. Build; the packed-taps tests (both tiles), the forced-igemm grid, ordered split-K and random sweeps; memcheck
# of sanitize_small.py; a same-build A/B of TCONV_GRAD_WEIGHT_NARROW_N (1: the 48-wide tile, 0: 64) on fam07 and
# fam03 (48 input channels each); then the complete TF32 suite as far as the call's time goes (rows kept in
# /tmp/bench_tf32; the next call resumes with benchmarks/results/logs/session24-next_run.sh, SKIP_BUILD=1).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py tests/test_grad_weight_ordered_gpu.py \
  -k "packed_taps or test_grid_forced_igemm or ordered or random_sweep" > $OUT/pytest.log 2>&1
echo "pytest rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
echo "t $((SECONDS-t0)) s"
timeout 90 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -2 $OUT/memcheck.log
echo "t $((SECONDS-t0)) s"
OUT=/tmp/ab SWITCH=TCONV_GRAD_WEIGHT_NARROW_N VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" \
  timeout 150 bash scripts/device_switch_ab.sh fam07_convt3d_k3_96x96x96 fam03_convt3d_k3_64x64x64 > $OUT/ab.log 2>&1
echo "ab rc $?"
OUT=/tmp/ab SWITCH=TCONV_GRAD_WEIGHT_NARROW_N VALUES="1 0" ROUNDS=1 PRECISIONS="bf16" \
  timeout 60 bash scripts/device_switch_ab.sh fam07_convt3d_k3_96x96x96 >> $OUT/ab.log 2>&1
grep -v "^ " $OUT/ab.log | cut -c1-200
echo "t $((SECONDS-t0)) s"
mkdir -p /tmp/bench_tf32
python3 -m tconv bench --suite all --precision tf32 --no-compile --runs 20 --warmup 3 \
  --time-budget $((570-SECONDS+t0)) --out /tmp/bench_tf32 > $OUT/bench.log 2>&1
echo "bench rc $?"; cp /tmp/bench_tf32/bench_*.json $OUT/; tail -8 $OUT/bench.log | cut -c1-220
echo "done $((SECONDS-t0)) s"
