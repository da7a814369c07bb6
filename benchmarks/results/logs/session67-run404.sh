#!/usr/bin/env bash
# Session 67, run 404 (one H200; the session's last device time): records at 9d4cb24's code.
# 1. Where L2-61's TF32 fwd+bwd goes now that its grad_weight runs swapped (kernel_breakdown, tconv's ModelNew).
# 2. Nsight Compute of fam07's bf16 forward (the unit-stride tap-pairs kernel, one block per SM, 18 stages of a
#    (kd, kh) and 32 channels, C_in 48 padded to 64): is its fill and store the limit, as fam04's was (run 385)?
# 3. The GPU test files run 403's time limit did not reach.
# 4. Verified rows of rows the swap rule changed and no bench has recorded: fam02 TF32, fam07 TF32, L2-61 bf16.
# Pass TCONV_COMMIT=<literal sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
(cd scripts && timeout 40 python3 kernel_breakdown.py l2_61_convt3d_relu_groupnorm --precision tf32 --iters 3 \
  --json "$LOG/census_l2_61_tf32.json" > "$LOG/census.log" 2>&1); grep -v Warn "$LOG/census.log" | head -24
left 300 && KERNEL=unit_stride_forward CASES="fam07_bf16:fam07_convt3d_k3_96x96x96:bf16" OUT="$LOG" \
  timeout 90 bash scripts/ncu_stalls.sh
left 330 && timeout 100 python3 -m pytest -q -p no:cacheprovider tests/test_gather_widest_gpu.py \
  tests/test_grad_weight_ordered_gpu.py tests/test_grad_weight_rows16_gpu.py tests/test_grad_weight_rows_3d_gpu.py \
  tests/test_optimize_gpu.py tests/test_pack_weight_gpu.py tests/test_sum_splits_gpu.py --tb=short \
  > "$LOG/pytest_rest.log" 2>&1; grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest_rest.log" | tail -8
echo "== bench at $(( $(date +%s) - start )) s"
bench_rows 445 fam02_convt3d_k3x5x7_16x32x64:tf32:40 l2_61_convt3d_relu_groupnorm:bf16:40 \
  fam07_convt3d_k3_96x96x96:tf32:90
device_finish
