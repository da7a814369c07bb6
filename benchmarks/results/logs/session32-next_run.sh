#!/usr/bin/env bash
# Prepared in session 32 for the next session's first two calls (neither patch has run on a GPU):
#  a. logs/session32-shifted_x_half_skip.patch: the shifted-x grad_weight's unit of 32 with a row's last chunk skipping
#     its empty second half, and 32 for every call. Run 212 had the unit of 32 win on bf16 L1-68 (17.09 -> 14.74 ms
#     fwd+bwd) and TF32 L1-71 (3.378 -> 3.128) but lose 1.5 % on TF32 L1-68, whose W_out of 68 computes 96 positions
#     in units of 32 against 80 in units of 16. Each branch issues a complete commit group (tried first: a break among
#     one group's wgmmas, and a group split in two with the branch between; both made ptxas fence every wgmma, C7519).
#     Predicted (a two-term fit of run 212: a cost per unit plus a cost per position): TF32 L1-68 fwd+bwd 21.9 -> ~21.0
#     ms, bf16 L1-68 14.74 -> ~14.5, L1-71 as run 212.
#  b. logs/session32-strip_backward_16bit.patch: the 1D strip grad_input and grad_weight kernels (HiFi-GAN's backward)
#     on fp16/bf16 data. Both copy or load 4-element pieces as they are (8-byte cp.async / loads) and widen them to
#     fp32 (exact in TF32), and the weights are packed widened, so the slots and MMAs are fp32's; grad_input is rounded
#     once at its store. bf16 HiFi-GAN runs the 16-bit gathers for grad_input and the 16-bit mma.sync GEMM for
#     grad_weight today (backward ~14.5 of its 16.15 ms fwd+bwd; TF32's strip kernels: grad_weight 4.76 ms).
#     Dev switches TCONV_STRIP_GRAD_INPUT_16BIT, TCONV_STRIP_GRAD_WEIGHT_16BIT. Predicted: HiFi-GAN bf16 fwd+bwd
#     16.15 -> ~9.5-10 ms (grad_weight ~8.7 -> ~4.6, grad_input ~5.8 -> ~3.5).
# Both compile for sm_90a (no spills, no C75xx info; the fp32 kernels' registers as in the table) and apply together.
# PHASE=test (first call, ~460 s): apply both, build, the shifted-x tests at unit 32 (the rule) and 16, the strip
#   tests (grad_input's grid in tf32/fp16/bf16 with every gradient, the 16-bit grad_weight test, the planning test),
#   memcheck and racecheck of the shifted-x kernels, memcheck of the strip backward kernels.
# PHASE=ab (an immediate second call on the warm machine, ~180 s: the build is cached): same-build A/Bs,
#   TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=16/32 on L1-68 and L1-71; TCONV_STRIP_GRAD_WEIGHT_16BIT=1/0 and
#   TCONV_STRIP_GRAD_INPUT_16BIT=1/0 on HiFi-GAN (bf16), each alone.
# Landing either needs the ptxas table rewritten (PTXAS_TABLE=write scripts/compile_check.sh) and the notes; b also
# the README's and _ops.py's igemm_strip text (grad_input and grad_weight on 16-bit data).
# Usage: COMMIT=<sha> PHASE=test bash benchmarks/results/logs/session32-next_run.sh, then PHASE=ab.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
L=benchmarks/results/logs
for patch in session32-shifted_x_half_skip session32-strip_backward_16bit; do
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
  timeout 90 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py \
    -k "strip_grad_weight_16bit or strip_kernels_run_where_planned or strip_grad_input" > $OUT/pytest_strip.log 2>&1
  echo "strip tests rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest_strip.log | tail -6
  for run in "memcheck shifted_x" "racecheck shifted_x" "memcheck strip_grad"; do
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
  for switch in TCONV_STRIP_GRAD_WEIGHT_16BIT TCONV_STRIP_GRAD_INPUT_16BIT; do
    mkdir -p $OUT/$switch && OUT=$OUT/$switch SWITCH=$switch VALUES="1 0" ROUNDS=2 PRECISIONS="bf16" timeout 50 \
      bash scripts/device_switch_ab.sh real_hifigan_up > $OUT/$switch.log 2>&1
    echo "A/B $switch rc $?"; grep -E "fwd" $OUT/$switch.log | cut -c1-175
  done
fi
echo "done $((SECONDS-t0)) s"
