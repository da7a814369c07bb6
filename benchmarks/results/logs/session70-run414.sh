#!/usr/bin/env bash
# Session 70, run 414 (one H200; the ~250 s of device time left after run 413, so a build and ~1 minute at most):
# run 413 had fam02 bf16 fwd+bwd at 2.236 ms under the 10 % split-K workspace budget, 1.938 at 40 % (measured
# kernel) and 1.708 at 40 % with 4 packed row slots. Where the curve bends: quick_timing fam02 bf16 under
# TCONV_WORKSPACE_PERCENT 20 / 100 with LEAN 4 and the rule (the measured kernel), as far as the time goes.
# Pass TCONV_COMMIT=<literal sha>. Each part starts only if it can end before the call's limit.
source scripts/device_prelude.sh
for setting in 20:4 20: 100:4 100:; do
  IFS=: read -r percent lean <<< "$setting"
  left 225 && (cd scripts && TCONV_WORKSPACE_PERCENT=$percent TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN=$lean timeout 18 \
    python3 quick_timing.py fam02_convt3d_k3x5x7_16x32x64 --precision bf16 --runs 8 --warmup 2 \
    --json "$LOG/split_fam02_${percent}_${lean:-rule}.json" 2>&1 | grep -v Warn | sed "s/^/PERCENT=$percent LEAN=$lean /") \
    | tee -a "$LOG/timing_split.log"
done
device_finish
