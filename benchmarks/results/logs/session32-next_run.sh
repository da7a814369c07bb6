#!/usr/bin/env bash
# Prepared in session 32 for the next session's first two calls (neither patch has run on a GPU):
#  a. logs/session32-shifted_x_half_skip.patch: the shifted-x grad_weight's unit of 32 with a row's last chunk skipping
#     its empty second half, and 32 for every call. Run 212 had the unit of 32 win on bf16 L1-68 (17.09 -> 14.74 ms
#     fwd+bwd) and TF32 L1-71 (3.378 -> 3.128) but lose 1.5 % on TF32 L1-68, whose W_out of 68 computes 96 positions
#     in units of 32 against 80 in units of 16. Each branch issues a complete commit group (tried first: a break among
#     one group's wgmmas, and a group split in two with the branch between; both made ptxas fence every wgmma, C7519).
#     Predicted (a two-term fit of run 212: a cost per unit plus a cost per position): TF32 L1-68 fwd+bwd 21.9 -> ~21.0
#     ms, bf16 L1-68 14.74 -> ~14.5, L1-71 as run 212.
#  b. logs/session32-strip_grad_weight_16bit.patch: grad_weight's 1D strip kernel on fp16/bf16 data, the pieces copied
#     as they are (8-byte cp.async) and widened to fp32 in the slots (exact in TF32), so the MMAs are fp32's; bf16
#     HiFi-GAN's grad_weight runs the 16-bit mma.sync GEMM today (~8.7 ms at run 40; TF32's strip kernel 4.76).
#     Predicted: HiFi-GAN bf16 fwd+bwd 16.15 -> ~12 ms.
# Both compile for sm_90a (no spills, no C75xx info; the fp32 kernels' registers as in the table) and apply together.
# PHASE=test (first call, ~430 s): apply both, build, the shifted-x tests at unit 32 (the rule) and 16, the strip
#   tests (the new 16-bit grad_weight test and the planning test), memcheck and racecheck of the shifted-x kernels,
#   memcheck of the strip grad_weight kernels.
# PHASE=ab (an immediate second call on the warm machine, ~180 s: the build is cached): same-build A/Bs,
#   TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=16/32 on L1-68 and L1-71, TCONV_STRIP_GRAD_WEIGHT_16BIT=1/0 on HiFi-GAN (bf16).
# Landing either needs the ptxas table rewritten (PTXAS_TABLE=write scripts/compile_check.sh) and the notes.
# Usage: COMMIT=<sha> PHASE=test bash benchmarks/results/logs/session32-next_run.sh, then PHASE=ab.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
L=benchmarks/results/logs
for patch in session32-shifted_x_half_skip session32-strip_grad_weight_16bit; do
  git apply $L/$patch.patch || { echo "$patch did not apply"; exit 1; }
done
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest
if [ "${PHASE:-test}" = test ]; then
  for unit in rule 16; do
    env $([ $unit = 16 ] && echo TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=16) timeout 80 python3 -m pytest -q -rfE \
      -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "shifted_x" > $OUT/pytest_shifted_x_$unit.log 2>&1
    echo "shifted-x tests, unit $unit: rc $? ($((SECONDS-t0)) s)"
    grep -E "passed|failed|Error|assert" $OUT/pytest_shifted_x_$unit.log | tail -6
  done
  timeout 60 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py \
    -k "strip_grad_weight_16bit or strip_kernels_run_where_planned or strip_grad_input" > $OUT/pytest_strip.log 2>&1
  echo "strip tests rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest_strip.log | tail -6
  for run in "memcheck shifted_x" "racecheck shifted_x" "memcheck strip_grad_weight"; do
    set -- $run
    timeout 60 compute-sanitizer --tool $1 --kernel-name kns=$2 python3 tests/sanitize_small.py \
      >> $OUT/sanitize.log 2>&1
    echo "$1 ($2 kernels) rc $?"; tail -1 $OUT/sanitize.log
  done
else
  OUT=$OUT SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT VALUES="16 32" ROUNDS=2 PRECISIONS="tf32 bf16" timeout 110 \
    bash scripts/device_switch_ab.sh l1_68_convt3d_square_input_asym_kernel l1_71_convt2d_asym_input_square_kernel \
    > $OUT/switch_unit.log 2>&1
  echo "A/B unit rc $?"; grep -E "fwd" $OUT/switch_unit.log | cut -c1-175
  mkdir -p $OUT/strip && OUT=$OUT/strip SWITCH=TCONV_STRIP_GRAD_WEIGHT_16BIT VALUES="1 0" ROUNDS=2 PRECISIONS="bf16" \
    timeout 60 bash scripts/device_switch_ab.sh real_hifigan_up > $OUT/switch_strip.log 2>&1
  echo "A/B strip rc $?"; grep -E "fwd" $OUT/switch_strip.log | cut -c1-175
fi
echo "done $((SECONDS-t0)) s"
