#!/usr/bin/env bash
# Prepared in session 31 for the next session's first call (~480 s on a fresh machine): the 1D strip forward in
# fp16/bf16 with k16 MMAs, logs/session31-strip_lines_16bit.patch (not run on a GPU when prepared). The patch does
# for the 1D form what 6393fc8 did for the unit-stride form: StripForwardArgs, the kernel, its weight packing and
# issue_strip_steps typed on the data; a 16-bit stage holds twice the K values (64 / T channels) in the fp32 stage's
# bytes (K groups of 8 channels), so the shared memory, descriptors and wgmma count per stage are the fp32 stage's;
# m64n256k16 wgmma wrappers for f16/bf16; the plan's channels per stage by dtype; "auto" takes it as in TF32 (W stride
# a multiple of 8, a grid of at least the SM count). TCONV_STRIP_LINES_16BIT=0 keeps 16-bit calls off it.
#   1. apply the patch, build; the strip-forward tests (tf32/fp16/bf16) and the unit-stride ones;
#   2. memcheck and racecheck of the strip forward kernels (sanitize_small's new 16-bit case);
#   3. same-build A/B TCONV_STRIP_LINES_16BIT=1/0 on HiFi-GAN (the suite's one 1D W-stride-8 shape), bf16 and fp16.
# Predicted: HiFi-GAN bf16 forward 3.21 -> ~1.3-1.6 ms (TF32's strip form: 2.13 ms; run 206 had the k16 unit-stride
# form 1.6x its TF32-on-widened run). fwd+bwd moves by the forward only (grad_input's strip kernel stays fp32-only).
# Checked when prepared: the patch compiles for sm_90a (16-bit strip forwards 184-230 registers, no spills, no C75xx
# info; the fp32 ones unchanged at 234). Landing it needs the ptxas table rewritten (PTXAS_TABLE=write
# scripts/compile_check.sh: the kernel names gain the data type) and a rule measured for 16-bit if the A/B says so.
# Usage: COMMIT=<sha from the development machine> bash benchmarks/results/logs/session31-next_run.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
L=benchmarks/results/logs
git apply $L/session31-strip_lines_16bit.patch || { echo "the patch did not apply"; exit 1; }
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest
timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "strip_forward or unit_stride or strip_grad_input" > $OUT/pytest_strip.log 2>&1
echo "strip tests rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest_strip.log | tail -8
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --kernel-name kns=strip_forward python3 tests/sanitize_small.py \
    >> $OUT/sanitize_strip_forward.log 2>&1
  echo "$tool (strip forward kernels) rc $?"; tail -1 $OUT/sanitize_strip_forward.log
done
OUT=$OUT SWITCH=TCONV_STRIP_LINES_16BIT VALUES="1 0" ROUNDS=2 PRECISIONS="bf16 fp16" timeout 200 \
  bash scripts/device_switch_ab.sh real_hifigan_up > $OUT/switch_ab.log 2>&1
echo "A/B rc $?"; grep -E "fwd" $OUT/switch_ab.log | cut -c1-170
echo "done $((SECONDS-t0)) s"
