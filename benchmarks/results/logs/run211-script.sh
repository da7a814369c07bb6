#!/usr/bin/env bash
# Run 211 (session 32): the shifted-x grad_weight kernel on fp16/bf16 data (WeightShiftedXTile<2>: one m64nNk16 per
# 16-position unit with A = grad_output fragments in registers, B = one unshifted-by-descriptor copy of the x window
# per W tap, no rounding; boxes of half the fp32 bytes, 12 stages). Build; the shifted-x tests in every mode (s10-s13
# cover the 16-bit window offsets 0-3); memcheck and racecheck of the shifted-x kernels (sanitize_small's bf16 and
# fp16 flat-map cases); a same-build A/B TCONV_GRAD_WEIGHT_SHIFTED_X_16BIT=1/0 on L1-68 and L1-71 (the suite's
# shapes it takes) in bf16 and fp16, with tf32 as the control (the switch does not touch it).
# Predicted: L1-68 bf16 grad_weight ~16.5 ms (the 16-bit GEMM) -> ~4.5-5.5, fwd+bwd 25.8 -> ~14-15 ms; L1-71 less.
# Usage: COMMIT=<sha> bash run211.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "shifted_x" \
  > $OUT/pytest_shifted_x.log 2>&1
echo "shifted-x tests rc $? ($((SECONDS-t0)) s)"; grep -E "passed|failed|Error|assert" $OUT/pytest_shifted_x.log | tail -12
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --kernel-name kns=shifted_x python3 tests/sanitize_small.py \
    >> $OUT/sanitize_shifted_x.log 2>&1
  echo "$tool (shifted-x kernels) rc $?"; tail -1 $OUT/sanitize_shifted_x.log
done
OUT=$OUT SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_16BIT VALUES="1 0" ROUNDS=2 PRECISIONS="bf16 fp16 tf32" timeout 200 \
  bash scripts/device_switch_ab.sh l1_68_convt3d_square_input_asym_kernel l1_71_convt2d_asym_input_square_kernel \
  > $OUT/switch_ab.log 2>&1
echo "A/B rc $?"; grep -E "fwd" $OUT/switch_ab.log | cut -c1-175
echo "done $((SECONDS-t0)) s"
