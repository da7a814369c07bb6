#!/usr/bin/env bash
# Session 72, run 422 (one H200; the session's last ~490 s of device time): the strip grad_weight on fp16/bf16 data as
# they are (k16 MMAs), now the default (TCONV_STRIP_GRAD_WEIGHT_16BIT=2; =1 the widened form). Run at the commit that
# adds this name, passed as TCONV_COMMIT.
# 1. Tests: both 16-bit forms of both strip backward kernels against float64 (every (s, T)), the 16-bit strip
#    grad_weight grid (poisoned), the kernel-choice test.
# 2. HiFi-GAN bf16 quick timing, k16 grad_weight against the widened one. Predicted: grad_weight 3.42 -> ~2.0-2.5 ms
#    (its loop was instruction-bound on the strip stores, which stay as many), fwd+bwd 6.11 -> ~5.3-5.6 ms.
# 3. The verified bf16 row of HiFi-GAN; memcheck of the strip grad_weight kernels if time is left.
source scripts/device_prelude.sh
left 330 && timeout 100 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "strip_backward_16bit_forms or strip_grad_weight_16bit or strip_kernels_run_where_planned" \
  > "$LOG/pytest_strip.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_strip.log" | tail -12
for form in 2 1; do
  precisions="bf16"; [ $form = 2 ] && precisions="bf16 tf32"  # TF32: the kernel's fp32 form recompiled (198 -> 197 regs)
  left 400 && (cd scripts && TCONV_STRIP_GRAD_WEIGHT_16BIT=$form timeout 30 python3 quick_timing.py real_hifigan_up \
    --precision $precisions --runs 10 --warmup 2 --json "$LOG/t_$form.json" 2>&1 | grep -v Warn | sed "s/^/form=$form /")
done | tee "$LOG/timing.log"
bench_rows 465 real_hifigan_up:bf16:60
left 440 && timeout 30 compute-sanitizer --tool memcheck --kernel-name kns=strip_grad_weight \
  python3 tests/sanitize_small.py > "$LOG/memcheck.log" 2>&1
[ -f "$LOG/memcheck.log" ] && tail -1 "$LOG/memcheck.log"
device_finish
