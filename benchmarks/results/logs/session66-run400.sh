#!/usr/bin/env bash
# Session 66, run 400 (one H200; the session's last device time): the swapped grad_weight's rule as it lands (3D
# kernels; the swapped way where it takes the shifted-x kernel and the plain way does not, or counts more work).
# - A/B, default against TCONV_GRAD_WEIGHT_SWAP=0: fam02 in bf16 (the rule keeps it plain: 13.1 M / 13.3 M) and TF32
#   (it swaps: 19.7 M / 13.3 M), fam07 TF32 (it swaps: the plain way keeps the wgmma kernel), L2-61 bf16 (it swaps).
# - A verified bf16 row of fam07 if the call has time.
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
for swap in rule 0; do
  left 330 && (cd scripts && env $([ $swap = 0 ] && echo TCONV_GRAD_WEIGHT_SWAP=0) timeout 60 python3 quick_timing.py \
    fam02_convt3d_k3x5x7_16x32x64 fam07_convt3d_k3_96x96x96 l2_61_convt3d_relu_groupnorm --precision bf16 tf32 \
    --runs 8 --warmup 2 --json "$LOG/swap_$swap.json" 2>&1 | grep -v Warn | sed "s/^/SWAP=$swap /") \
    | tee -a "$LOG/timing_swap.log"
done
echo "== bench at $(( $(date +%s) - start )) s"
bench_rows 400 fam07_convt3d_k3_96x96x96:bf16:90
device_finish
