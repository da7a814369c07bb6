#!/usr/bin/env bash
# Prepared in session 32 for the next session's first call (~450 s on a fresh machine): the shifted-x grad_weight's
# unit of 32 with a row's last chunk skipping its empty second half, logs/session32-shifted_x_half_skip.patch (not run
# on a GPU when prepared). Run 212 had the unit of 32 win on bf16 L1-68 (17.09 -> 14.74 ms fwd+bwd) and TF32 L1-71
# (3.378 -> 3.128) but lose 1.5 % on TF32 L1-68, whose W_out of 68 computes 96 positions in units of 32 against 80 in
# units of 16. The patch issues a half-empty unit's first half only (each branch a complete commit group: a branch
# among one group's wgmmas, or a group split in two with a branch between, made ptxas fence every wgmma, C7519, when
# tried), and makes 32 the unit for every call (TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=16 still forces 16).
#   1. apply the patch, build; the shifted-x tests with the unit left to the rule (32) and forced to 16 (the grid has
#      W_out 16, 40 and 36 for the skip and 18-32 without it);
#   2. memcheck and racecheck of the shifted-x kernels at unit 32 (sanitize_small: W_out 20 skips);
#   3. same-build A/B TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=16/32 on L1-68 (tf32, bf16) and L1-71 (tf32).
# Predicted (a two-term fit of run 212's times, per-unit cost + per-position cost): TF32 L1-68 fwd+bwd 21.9 -> ~21.0
# ms (grad_weight 8.4 -> ~7.5), bf16 L1-68 14.74 -> ~14.5, L1-71 as run 212 (its last chunk, 1026 mod 32 = 2, skips
# a half already: 3.13). If TF32 L1-68 wins, land it with the ptxas table rewritten (PTXAS_TABLE=write; the kernel
# names do not change, their code does) and the notes.
# Checked when prepared: the patch compiles for sm_90a, 30 shifted-x kernels at 128 registers (setmaxnreg), no spills,
# no C75xx info.
# Usage: COMMIT=<sha from the development machine> bash benchmarks/results/logs/session32-next_run.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
L=benchmarks/results/logs
git apply $L/session32-shifted_x_half_skip.patch || { echo "the patch did not apply"; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest
for unit in rule 16; do
  env $([ $unit = 16 ] && echo TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=16) timeout 80 python3 -m pytest -q -rfE \
    -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "shifted_x" > $OUT/pytest_shifted_x_$unit.log 2>&1
  echo "shifted-x tests, unit $unit: rc $? ($((SECONDS-t0)) s)"
  grep -E "passed|failed|Error|assert" $OUT/pytest_shifted_x_$unit.log | tail -6
done
for tool in memcheck racecheck; do
  timeout 70 compute-sanitizer --tool $tool --kernel-name kns=shifted_x python3 tests/sanitize_small.py \
    >> $OUT/sanitize_shifted_x.log 2>&1
  echo "$tool (shifted-x kernels, unit 32) rc $?"; tail -1 $OUT/sanitize_shifted_x.log
done
OUT=$OUT SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT VALUES="16 32" ROUNDS=2 PRECISIONS="tf32 bf16" timeout 160 \
  bash scripts/device_switch_ab.sh l1_68_convt3d_square_input_asym_kernel l1_71_convt2d_asym_input_square_kernel \
  > $OUT/switch_ab.log 2>&1
echo "A/B rc $?"; grep -E "fwd" $OUT/switch_ab.log | cut -c1-175
echo "done $((SECONDS-t0)) s"
