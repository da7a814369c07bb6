#!/usr/bin/env bash
# Prepared in session 72 for the next session's first GPU call (one H200; rename to sessionNN-runMMM.sh when it runs,
# fix this line, commit, pass TCONV_COMMIT=<literal sha>).
# 1. Serial census (passes one after the other) of HiFi-GAN and fam05 bf16 under the k16 strip backward kernels
#    (session 72: HiFi-GAN 0.98x, fam05 0.99x fwd+bwd), and the originals' under cuDNN-benchmark for fam05.
# 2. ncu stall breakdown of the k16 strip grad_weight and of the 16-bit strip forward on HiFi-GAN (is the k16
#    grad_weight's loop bound by its per-stage work now: barrier, raw-to-slot stores, at 16 positions a stage?).
# 3. Verified bf16 rows of fam05 and HiFi-GAN.
source scripts/device_prelude.sh
left 330 && (cd scripts && TCONV_CONCURRENT_BACKWARD=0 timeout 40 python3 kernel_breakdown.py real_hifigan_up \
  fam05_convt2d_k3x7_512x512 --precision bf16 --iters 3 --json "$LOG/census_serial.json" 2>&1 | grep -v Warn) \
  > "$LOG/census_serial.log"
[ -f "$LOG/census_serial.log" ] && grep -A7 "^==" "$LOG/census_serial.log" | cut -c1-150
left 360 && (cd scripts && timeout 30 python3 kernel_breakdown.py fam05_convt2d_k3x7_512x512 --precision bf16 \
  --iters 3 --model original --cudnn-benchmark --json "$LOG/census_fam05_original.json" 2>&1 | grep -v Warn) \
  > "$LOG/census_fam05_original.log"
[ -f "$LOG/census_fam05_original.log" ] && grep -A8 "^==" "$LOG/census_fam05_original.log" | cut -c1-150
for kernel in strip_grad_weight strip_forward; do
  left 420 && OUT="$LOG" KERNEL=$kernel CASES="hifigan_bf16_$kernel:real_hifigan_up:bf16" timeout 90 \
    bash scripts/ncu_stalls.sh 2>&1 | tail -25
done
bench_rows 570 fam05_convt2d_k3x7_512x512:bf16:60 real_hifigan_up:bf16:60
device_finish
