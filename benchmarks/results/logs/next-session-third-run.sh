#!/usr/bin/env bash
# Prepared in session 79 for the next session's third GPU call (one H200; rename to sessionNN-runMMM.sh when it runs,
# fix these lines, commit, pass TCONV_COMMIT=<literal full sha>). If the first call's verified fam04 TF32 row ran,
# drop it here.
# Session 79 made lane boxes the default (fam04 TF32 fwd+bwd 7.685 -> 7.010 ms, quick_timing, run 448) and hoisted
# the measured and narrow shifted-x producers' row offsets (fam05 TF32 4.799 ms in run 448 against its row's 4.959 at
# 2d0a71f, across calls; L1-71 level at 2.160). None of those has a verified row yet. So:
# 1. verified rows: fam04 TF32 (the suite's row, 7.638, is lane 0's), fam05 TF32, L2-61 TF32 (issue 5; the measured
#    form's producer changed);
# 2. the first channels-last rows (`tconv bench --layout channels_last`, session 79; the issue's 16-bit target names
#    both layouts): fam05 and VAE bf16;
# 3. where the time goes on the two rows below eager in 16-bit and the lowest TF32 fwd+bwd row: per-kernel breakdowns
#    (serial backward) of DCGAN bf16 and HiFi-GAN TF32, ours and the original's under cuDNN-benchmark.
source scripts/device_prelude.sh
bench_rows 450 fam04_convt1d_k3_65536:tf32:90 fam05_convt2d_k3x7_512x512:tf32:60 l2_61_convt3d_relu_groupnorm:tf32:50
left 400 && timeout 100 python3 -m tconv bench fam05_convt2d_k3x7_512x512 real_vae_up --precision bf16 \
  --layout channels_last --no-compile --runs 20 --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" \
  | tee -a "$LOG/bench_channels_last.log" | grep -v "^chart"
b() {  # stem precision [extra kernel_breakdown arguments]
  local stem="$1" precision="$2"; shift 2
  timeout 40 python3 scripts/kernel_breakdown.py "$stem" --precision "$precision" --iters 3 "$@" 2>&1 | grep -v Warn
}
{
  left 520 && b real_dcgan_up bf16
  left 540 && b real_dcgan_up bf16 --model original --cudnn-benchmark
  left 560 && b real_hifigan_up tf32
  left 575 && b real_hifigan_up tf32 --model original --cudnn-benchmark
} > "$LOG/breakdown.log" 2>&1
head -c 6000 "$LOG/breakdown.log"
device_finish
