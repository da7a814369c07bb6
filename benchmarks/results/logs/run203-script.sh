#!/usr/bin/env bash
# Run 203 (session 31): fp16/bf16 data on the unit-stride form (forward and grad_input through the same kernel, TF32
# MMAs on exactly widened values). Build; the unit-stride tests in tf32/fp16/bf16 (forward grid, grad_input grid with
# every gradient, the planning tests); memcheck and racecheck of sanitize_small (its new 16-bit unit-stride case);
# then a same-build A/B of TCONV_UNIT_STRIDE_16BIT=1/0 on the suite's stride-1 problems in bf16 (quick_timing,
# alternating processes, two rounds), forward and fwd+bwd.
# Predicted (bf16, from the TF32 times of the same kernels): L1-68 fwd 7.28 -> ~6.1 ms, fam02 1.55 -> ~0.75,
# fam07 7.10 -> ~5.1, fam11 2.13 -> ~1.4; fwd+bwd gains from grad_input where its K passes the rule.
# Usage: COMMIT=<sha> bash run203.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "unit_stride" \
  > $OUT/pytest_unit_stride.log 2>&1
echo "unit-stride tests rc $? ($((SECONDS-t0)) s)"; grep -E "passed|failed|Error|assert" $OUT/pytest_unit_stride.log | tail -8
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --kernel-name kns=unit_stride python3 tests/sanitize_small.py \
    >> $OUT/sanitize_unit_stride.log 2>&1
  echo "$tool (unit-stride kernels) rc $?"; tail -1 $OUT/sanitize_unit_stride.log
done
echo "tests done $((SECONDS-t0)) s"
OUT=$OUT SWITCH=TCONV_UNIT_STRIDE_16BIT VALUES="1 0" ROUNDS=2 PRECISIONS="bf16" timeout 330 bash scripts/device_switch_ab.sh \
  l1_68_convt3d_square_input_asym_kernel l1_71_convt2d_asym_input_square_kernel l2_61_convt3d_relu_groupnorm \
  fam01_convt2d_k3_1024x1024 fam02_convt3d_k3x5x7_16x32x64 fam03_convt3d_k3_64x64x64 fam04_convt1d_k3_65536 \
  fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256 fam07_convt3d_k3_96x96x96 fam11_convt2d_k3x7_p1x3_512x1024 \
  > $OUT/switch_ab.log 2>&1
echo "A/B rc $?"; grep -E "fwd" $OUT/switch_ab.log | cut -c1-170
echo "done $((SECONDS-t0)) s"
