#!/usr/bin/env bash
# Run 182 (session 28): both session-27 patches applied (run 181 passed their tests but left the shifted-x kernel
# nearly untested: only 2 of its 6 test shapes and none of the sanitizer calls had rows of a multiple of 16 bytes,
# which its TMA tensor maps need). Build; the new shifted-x grid (7 shapes, "row_padded" x, kernel-name asserts) and
# the rows tests; memcheck of sanitize_small.py; racecheck and synccheck restricted to the wgmma grad_weight kernels
# (run 181's unrestricted racecheck passed its 90 s); Nsight Compute stalls of the shifted-x kernel on L1-68 and of
# the specialized rows kernel on DCGAN (run 181: 12.0 ms where ~6-7 was predicted; 0.43 ms where ~0.30 was).
# Usage: COMMIT=<sha from the development machine> bash run182.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "grad_weight_rows or shifted_x" \
  > $OUT/pytest.log 2>&1
echo "rows + shifted-x tests rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
timeout 100 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1
echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
for tool in racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --kernel-name kns=grad_weight_wgmma python3 tests/sanitize_small.py \
    > $OUT/$tool.log 2>&1
  echo "$tool (grad_weight_wgmma kernels) rc $?"; tail -1 $OUT/$tool.log
done
echo "t $((SECONDS-t0)) s"
OUT=$OUT KERNEL=grad_weight_wgmma CASES="l1_68_tf32:l1_68_convt3d_square_input_asym_kernel:tf32 dcgan_tf32:real_dcgan_up:tf32" \
  timeout $((585 - (SECONDS - t0))) bash scripts/ncu_stalls.sh 2>&1 | cut -c1-200
echo "done $((SECONDS-t0)) s"
