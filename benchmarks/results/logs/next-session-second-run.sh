#!/usr/bin/env bash
# Prepared in session 71 for the next session's second GPU call (one H200; rename to sessionNN-runMMM.sh when it runs,
# fix this line, commit, pass TCONV_COMMIT=<literal sha>).
# 1. test_gather_widest_gpu.py, not finished on a GPU since session 67's swap rule (>100 s).
# 2. L2-61 TF32 and bf16 verified rows (issue 5) at the current defaults (last: 1.268 / 4.573 TF32, run 402).
# 3. quick_timing of bf16 3D rows whose grad_weight may sit near the turn-buffer rule's edge (tiles x capped splits
#    against 132 SMs), rule / TCONV_GRAD_WEIGHT_TURN_BUFFERS=2, plans logged: L2-61, fam03, fam10, L1-72.
source scripts/device_prelude.sh
left 400 && timeout 130 python3 -m pytest -q -p no:cacheprovider tests/test_gather_widest_gpu.py --tb=short \
  > "$LOG/pytest_widest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_widest.log" | tail -8
bench_rows 500 l2_61_convt3d_relu_groupnorm:tf32:50 l2_61_convt3d_relu_groupnorm:bf16:50
for turns in "" 2; do
  left 525 && (cd scripts && TCONV_GRAD_WEIGHT_BALANCE=log TCONV_GRAD_WEIGHT_TURN_BUFFERS=$turns timeout 45 \
    python3 quick_timing.py l2_61_convt3d_relu_groupnorm fam03_convt3d_k3_64x64x64 fam10_convt3d_k3_s2_p1_d2_16x32x32 \
    l1_72_convt3d_asym_kernel_strided_padded_grouped --precision bf16 --runs 6 --warmup 2 \
    --json "$LOG/t_${turns:-rule}.json" > "$LOG/t_${turns:-rule}.out" 2> "$LOG/t_${turns:-rule}.err")
  sed "s/^/TURNS=${turns:-rule} /" "$LOG/t_${turns:-rule}.out" 2>/dev/null | grep -v Warn
  grep "grad_weight plan" "$LOG/t_${turns:-rule}.err" 2>/dev/null | sort | uniq -c | cut -c1-150
done
device_finish
