#!/usr/bin/env bash
# Run 212 (session 32): the shifted-x grad_weight with 32 grad_output positions per unit (kUnitK 32: two k16 or four
# k8 steps per pipeline stage; fp32 4 stages, 16-bit 8; 16-bit at 16 now has 14 stages, run 211 had 12). Run 211's
# 16-bit kernel took ~7.5 ms on L1-68 against TF32's 8.4 with half the bytes and half the MMA instructions, so a
# per-unit cost (barriers, fences, the TMA rows' sector count) looks like the limit; a unit of 32 halves the per-unit
# steps and cuts the sectors per position by a quarter, at the cost of L1-68's W tail (W_out 68: 96 positions
# computed instead of 80). Build; the shifted-x tests with the unit forced to 16 and to 32; memcheck (both units) and
# racecheck (32) of the shifted-x kernels; same-build A/B TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=16/32 on L1-68 and L1-71
# (bf16 and tf32; L1-71's bf16 does not take the kernel).
# Predicted: L1-68 bf16 fwd+bwd 16.9 -> ~15 ms, tf32 21.9 -> ~20.5; L1-71 tf32 3.39 -> ~3.2.
# Usage: COMMIT=<sha> bash run212.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest
for unit in 16 32; do
  TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=$unit timeout 90 python3 -m pytest -q -rfE -p no:cacheprovider \
    tests/test_conv_transpose_gpu.py -k "shifted_x" > $OUT/pytest_shifted_x_unit$unit.log 2>&1
  echo "shifted-x tests, unit $unit: rc $? ($((SECONDS-t0)) s)"
  grep -E "passed|failed|Error|assert" $OUT/pytest_shifted_x_unit$unit.log | tail -6
done
for run in "memcheck 16" "memcheck 32" "racecheck 32"; do
  set -- $run
  TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=$2 timeout 70 compute-sanitizer --tool $1 --kernel-name kns=shifted_x \
    python3 tests/sanitize_small.py >> $OUT/sanitize_shifted_x.log 2>&1
  echo "$1 (shifted-x kernels, unit $2) rc $?"; tail -1 $OUT/sanitize_shifted_x.log
done
OUT=$OUT SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT VALUES="16 32" ROUNDS=2 PRECISIONS="bf16 tf32" timeout 170 \
  bash scripts/device_switch_ab.sh l1_68_convt3d_square_input_asym_kernel l1_71_convt2d_asym_input_square_kernel \
  > $OUT/switch_ab.log 2>&1
echo "A/B rc $?"; grep -E "fwd" $OUT/switch_ab.log | cut -c1-175
echo "done $((SECONDS-t0)) s"
