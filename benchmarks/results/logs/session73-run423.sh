#!/usr/bin/env bash
# Session 73, run 423 (one H200; prepared in session 72). Run at the commit that adds this name, passed as
# TCONV_COMMIT.
# 1. Serial census (passes one after the other) of HiFi-GAN and fam05 bf16 under the k16 strip backward kernels
#    (session 72: HiFi-GAN 0.98x, fam05 0.99x fwd+bwd), and the originals' under cuDNN-benchmark for fam05.
# 2. ncu stall breakdown of the k16 strip grad_weight and of the 16-bit strip forward on HiFi-GAN (is the k16
#    grad_weight's loop bound by its per-stage work now: barrier, raw-to-slot stores, at 16 positions a stage?).
# 3. Verified bf16 rows of fam05 and HiFi-GAN.
# 0. First: test_strip_backward_16bit_forms (its third grad_weight form, TCONV_STRIP_GRAD_WEIGHT_16BIT=3, A M-major,
#    was written in session 72 without a GPU) and HiFi-GAN bf16 quick timing of forms 3 and 2.
source scripts/device_prelude.sh
left 300 && timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "strip_backward_16bit_forms" > "$LOG/pytest_forms.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_forms.log" | tail -8
for form in 3 2; do
  left 330 && (cd scripts && TCONV_STRIP_GRAD_WEIGHT_16BIT=$form timeout 25 python3 quick_timing.py real_hifigan_up \
    --precision bf16 --runs 10 --warmup 2 --json "$LOG/t_form$form.json" 2>&1 | grep -v Warn | sed "s/^/form=$form /")
done | tee "$LOG/timing_forms.log"
left 380 && (cd scripts && TCONV_CONCURRENT_BACKWARD=0 timeout 40 python3 kernel_breakdown.py real_hifigan_up \
  fam05_convt2d_k3x7_512x512 --precision bf16 --iters 3 --json "$LOG/census_serial.json" 2>&1 | grep -v Warn) \
  > "$LOG/census_serial.log"
[ -f "$LOG/census_serial.log" ] && grep -A7 "^==" "$LOG/census_serial.log" | cut -c1-150
left 410 && (cd scripts && timeout 30 python3 kernel_breakdown.py fam05_convt2d_k3x7_512x512 --precision bf16 \
  --iters 3 --model original --cudnn-benchmark --json "$LOG/census_fam05_original.json" 2>&1 | grep -v Warn) \
  > "$LOG/census_fam05_original.log"
[ -f "$LOG/census_fam05_original.log" ] && grep -A8 "^==" "$LOG/census_fam05_original.log" | cut -c1-150
for kernel in strip_grad_weight strip_forward; do
  left 470 && OUT="$LOG" KERNEL=$kernel CASES="hifigan_bf16_$kernel:real_hifigan_up:bf16" timeout 90 \
    bash scripts/ncu_stalls.sh 2>&1 | tail -25
done
bench_rows 590 fam05_convt2d_k3x7_512x512:bf16:60 real_hifigan_up:bf16:60
device_finish
