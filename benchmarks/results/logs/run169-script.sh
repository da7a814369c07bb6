#!/usr/bin/env bash
# Run 169 (session 25): the wgmma grad_weight's packed taps. Build; the new packed-taps tests and every 3D grid
# test; memcheck of sanitize_small.py; then a same-build A/B of TCONV_GRAD_WEIGHT_PACKED_TAPS (0: one m64 block per
# tap, 1: packed, 2: packed fp32 two-block kernels at 4 blocks per SM) on fam07 (packed 3 -> 2 blocks) and two
# shapes that do not pack (L2-61, fam03: controls), then the forced-igemm grid, ordered split-K and random-sweep tests as far as time goes.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "packed_taps" > $OUT/pytest_packed.log 2>&1
echo "packed tests rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest_packed.log | tail -8
echo "t $((SECONDS-t0)) s"
timeout 90 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -2 $OUT/memcheck.log
echo "t $((SECONDS-t0)) s"
OUT=$OUT/ab SWITCH=TCONV_GRAD_WEIGHT_PACKED_TAPS VALUES="1 0 2" ROUNDS=2 PRECISIONS="tf32" \
  timeout 200 bash scripts/device_switch_ab.sh fam07_convt3d_k3_96x96x96 l2_61_convt3d_relu_groupnorm fam03_convt3d_k3_64x64x64 > $OUT/ab.log 2>&1
echo "ab rc $?"; grep -v "^ " $OUT/ab.log | cut -c1-200
OUT=$OUT/ab SWITCH=TCONV_GRAD_WEIGHT_PACKED_TAPS VALUES="1 0" ROUNDS=1 PRECISIONS="bf16" \
  timeout 60 bash scripts/device_switch_ab.sh fam07_convt3d_k3_96x96x96 >> $OUT/ab.log 2>&1
grep "bf16" $OUT/ab.log | cut -c1-200
echo "t $((SECONDS-t0)) s"
left=$((585-SECONDS+t0))
[ $left -gt 30 ] && timeout $left python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py tests/test_grad_weight_ordered_gpu.py -k "test_grid_forced_igemm or ordered or random_sweep" > $OUT/pytest.log 2>&1
echo "pytest rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
echo "done $((SECONDS-t0)) s"
