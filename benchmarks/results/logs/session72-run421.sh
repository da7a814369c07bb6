#!/usr/bin/env bash
# Session 72, run 421 (one H200): the strip grad_input on fp16/bf16 data as they are (k16 MMAs), now the default
# (TCONV_STRIP_GRAD_INPUT_16BIT=2; =1 the widened form). Run at the commit that adds this name, passed as TCONV_COMMIT.
# 1. Tests: both 16-bit forms against float64 (every (s, T)), the strip grad_input grid in TF32/fp16/bf16 (poisoned),
#    the kernel-choice and refusal tests.
# 2. Memcheck of the strip grad_input kernels (sanitize_small.py's 16-bit k16 s8 p4 case).
# 3. HiFi-GAN fp16/bf16 quick timing, k16 form against the widened one (two rounds); the serial census (passes one
#    after the other) under the k16 form. Predicted: grad_input 2.69 -> ~1.1-1.4 ms (the TF32 form's 1.80 ms at
#    306 TF/s with half the bytes and twice the MMA rate), fwd+bwd 7.71 -> ~6.6 ms.
# 4. The verified bf16 row of HiFi-GAN.
source scripts/device_prelude.sh
left 420 && timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "strip_grad_input or strip_kernels_run_where_planned" > "$LOG/pytest_strip.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_strip.log" | tail -12
left 440 && timeout 40 compute-sanitizer --tool memcheck --kernel-name kns=strip_grad_input \
  python3 tests/sanitize_small.py > "$LOG/memcheck.log" 2>&1
[ -f "$LOG/memcheck.log" ] && tail -1 "$LOG/memcheck.log"
for round in 1 2; do
  for form in 2 1; do
    left 500 && (cd scripts && TCONV_STRIP_GRAD_INPUT_16BIT=$form timeout 40 python3 quick_timing.py real_hifigan_up \
      --precision bf16 fp16 --runs 10 --warmup 2 --json "$LOG/t_r${round}_$form.json" 2>&1 | grep -v Warn \
      | sed "s/^/r$round form=$form /")
  done
done | tee "$LOG/timing.log"
left 510 && (cd scripts && TCONV_CONCURRENT_BACKWARD=0 timeout 30 python3 kernel_breakdown.py real_hifigan_up \
  --precision bf16 --iters 3 --json "$LOG/census_serial.json" 2>&1 | grep -v Warn) > "$LOG/census_serial.log"
[ -f "$LOG/census_serial.log" ] && grep -A6 "^==" "$LOG/census_serial.log" | cut -c1-150
bench_rows 585 real_hifigan_up:bf16:65
device_finish
