#!/usr/bin/env bash
# Prepared in session 79 (still pending in session 81) for a later GPU call (one H200; rename to sessionNN-runMMM.sh
# when it runs, fix these lines, commit, pass TCONV_COMMIT=<literal full sha>). Session 80 ran the verified fam04
# TF32 row (run 450) and the first channels-last bf16 rows (runs 451-453), so those left here.
# Session 79 made lane boxes the default (fam04 TF32 fwd+bwd 7.685 -> 7.010 ms, quick_timing, run 448) and hoisted
# the measured and narrow shifted-x producers' row offsets (fam05 TF32 4.799 ms in run 448 against its row's 4.959 at
# 2d0a71f, across calls; L1-71 level at 2.160). fam05 and L2-61 have no verified row since. So:
# 1. verified rows: fam05 TF32, L2-61 TF32 (issue 5; the measured form's producer changed);
# 2. where the time goes on the two rows below eager in 16-bit and the lowest TF32 fwd+bwd row: per-kernel breakdowns
#    (serial backward) of DCGAN bf16 and HiFi-GAN TF32, ours and the original's under cuDNN-benchmark.
source scripts/device_prelude.sh
bench_rows 400 fam05_convt2d_k3x7_512x512:tf32:60 l2_61_convt3d_relu_groupnorm:tf32:50
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
