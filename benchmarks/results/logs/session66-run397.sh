#!/usr/bin/env bash
# Session 66, run 397 (one H200; prepared in session 65).
# 0. The dynamic-tiles test in its refactored form (conftest's run_under_switch; it has not run on a GPU in this form).
# 1. Why fam07 and fam03 bf16 fwd+bwd trail cuDNN-benchmark (run 393: 0.92x and 0.99x): per-kernel census of tconv's
#    fwd+bwd, and of the original Model under cuDNN-benchmark (scripts/kernel_breakdown.py --cudnn-benchmark).
# 2. Verified TF32 rows of the shapes run 396's fast set-up divisions moved (fam04, fam06, L2-61) and fam01/fam05 (the
#    same kernels on the half tile), while the call has time.
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 60 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k unit_stride_mma_dynamic 2>&1 | tail -3 \
  | tee "$LOG/pytest.log"
for model in new original; do
  left 330 && (cd scripts && timeout 60 python3 kernel_breakdown.py fam07_convt3d_k3_96x96x96 fam03_convt3d_k3_64x64x64 \
    --precision bf16 --iters 3 --model $model $([ $model = original ] && echo --cudnn-benchmark) \
    --json "$LOG/census_bf16_$model.json" 2>&1 | grep -v Warn) | tee -a "$LOG/census.log"
done
echo "== bench at $(( $(date +%s) - start )) s"
bench_rows 580 fam04_convt1d_k3_65536:tf32:50 fam06_convt2d_k3x5_128x256:tf32:45 l2_61_convt3d_relu_groupnorm:tf32:45 \
  fam05_convt2d_k3x7_512x512:tf32:50 fam01_convt2d_k3_1024x1024:tf32:100
device_finish
