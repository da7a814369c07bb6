#!/usr/bin/env bash
# Run 183 (session 28): the shifted-x grad_weight kernel with sliding grad_output rows (units ordered with the input
# H row innermost; a chain of warpgroups on consecutive kh of one kd shares rows, so a unit loads one grad_output row
# per chain instead of one per warpgroup: L1-68's tiles average 1.4 rows instead of 3, 10 KB a unit instead of 18)
# and the consumers-only epilogue barrier (cf1e226). Build; shifted-x + rows tests (sliding on, then off);
# memcheck; racecheck and synccheck on the wgmma grad_weight kernels; same-build A/B of
# TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE 1 / 0 on L1-68 (TF32 fwd+bwd); the kernel breakdown.
# Prediction: run 182 had the kernel L2-bound (70 %, 44 GB); at 0.56x the traffic L1-68's grad_weight 12.1 -> ~7-8 ms
# on the H100, fwd+bwd 26.0 -> ~21.5 ms.
# Usage: COMMIT=<sha from the development machine> bash run183.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "grad_weight_rows or shifted_x" \
  > $OUT/pytest.log 2>&1
echo "rows + shifted-x tests rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE=0 timeout 60 python3 -m pytest -q -rfE -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py -k "shifted_x" >> $OUT/pytest.log 2>&1
echo "shifted-x tests (no sliding) rc $?"; tail -1 $OUT/pytest.log
timeout 100 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1
echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
for tool in racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --kernel-name kns=grad_weight_wgmma python3 tests/sanitize_small.py \
    > $OUT/$tool.log 2>&1
  echo "$tool (grad_weight_wgmma kernels) rc $?"; tail -1 $OUT/$tool.log
done
echo "t $((SECONDS-t0)) s"
OUT=/tmp/ab/slide SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" \
  timeout 150 bash scripts/device_switch_ab.sh l1_68_convt3d_square_input_asym_kernel > $OUT/ab_slide.log 2>&1
echo "ab slide rc $?"; grep -v "^ " $OUT/ab_slide.log | cut -c1-200
tar czf $OUT/ab_json.tgz -C /tmp/ab . 2>/dev/null
echo "t $((SECONDS-t0)) s"
(cd scripts && timeout 60 python3 kernel_breakdown.py l1_68_convt3d_square_input_asym_kernel --precision tf32 --iters 3) \
  > $OUT/breakdown.log 2>&1
echo "breakdown rc $?"; grep -E "^==|ms  x" $OUT/breakdown.log | cut -c1-160 | head -12
echo "done $((SECONDS-t0)) s"
