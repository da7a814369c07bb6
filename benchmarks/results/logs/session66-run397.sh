#!/usr/bin/env bash
# Prepared in session 65 for the next session's first GPU call (one H200; rename to sessionNN-runMMM.sh when it runs).
# 1. Why fam07 and fam03 bf16 fwd+bwd trail cuDNN-benchmark (run 393: 0.92x and 0.99x): per-kernel census of tconv's
#    fwd+bwd, and of the original Model under cuDNN-benchmark (scripts/kernel_breakdown.py --cudnn-benchmark).
# 2. Verified TF32 rows of the shapes run 396's fast set-up divisions moved (fam04, fam06, L2-61) and fam01/fam05 (the
#    same kernels on the half tile), while the call has time.
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
for model in new original; do
  left 330 && (cd scripts && timeout 60 python3 kernel_breakdown.py fam07_convt3d_k3_96x96x96 fam03_convt3d_k3_64x64x64 \
    --precision bf16 --iters 3 --model $model $([ $model = original ] && echo --cudnn-benchmark) \
    --json "$LOG/census_bf16_$model.json" 2>&1 | grep -v Warn) | tee -a "$LOG/census.log"
done
echo "== bench at $(( $(date +%s) - start )) s"
bench_rows 580 fam04_convt1d_k3_65536:tf32:50 fam06_convt2d_k3x5_128x256:tf32:45 l2_61_convt3d_relu_groupnorm:tf32:45 \
  fam05_convt2d_k3x7_512x512:tf32:50 fam01_convt2d_k3_1024x1024:tf32:100
device_finish
