#!/usr/bin/env bash
# Prepared in session 74 for the next session's first GPU call (one H200; rename to sessionNN-runMMM.sh when it runs,
# fix this line, commit, pass TCONV_COMMIT=<literal sha>).
# 1. Tests: the wgmma grad_weight against float64 in its three processes (session 74 removed the overlap form from the
#    plain kernel after its last GPU run; the plain kernel's registers are unchanged), the rule's choices.
# 2. Verified bf16 rows of fam01 (9 taps, 64 -> 64) and fam08 (1D, 32 -> 64) under run 429's rule (the specialized
#    kernel at every tap count, 64 output channels and up): run 429 timed fam01 7.971 -> 6.735 ms and fam08 1.608 ->
#    1.431 quick; run 430's rows ran past their limits (45 s, 30 s), hence 120 and 60.
# 3. fam06 (64 -> 128, 15 taps) and fam04 (1D, 128 -> 128, 3 taps) bf16 with the unit-stride grad_weight forced
#    (TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=1, outside its rule's 64 channels) onto the wgmma form, against "auto"
#    (shifted-x). Run 424's plain wgmma form lost on fam06 (3.922 -> 5.080); the specialized form is ~2x faster.
# 4. A serial census of fam01 bf16 under the new default (its next pass to attack).
source scripts/device_prelude.sh
left 330 && timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "unit_stride_wgmma_grad_weight or unit_stride_mma_grad_weight_where_planned" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
bench_rows 480 fam01_convt2d_k3_1024x1024:bf16:120 fam08_convt1d_k5_d3_131072:bf16:60
for problem in fam06_convt2d_k3x5_128x256 fam04_convt1d_k3_65536; do
  left 540 && (cd scripts && timeout 25 python3 quick_timing.py $problem --precision bf16 --runs 10 --warmup 2 2>&1 \
    | grep -v Warn | sed "s/^/auto /")
  left 540 && (cd scripts && TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=1 TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=1 timeout 25 \
    python3 quick_timing.py $problem --precision bf16 --runs 10 --warmup 2 2>&1 | grep -v Warn | sed "s/^/forced /")
done | tee "$LOG/timing.log"
left 560 && (cd scripts && TCONV_CONCURRENT_BACKWARD=0 timeout 30 python3 kernel_breakdown.py \
  fam01_convt2d_k3_1024x1024 --precision bf16 --iters 3 --json "$LOG/census_fam01.json" 2>&1 | grep -v Warn) \
  > "$LOG/census_fam01.log"
[ -f "$LOG/census_fam01.log" ] && grep -A6 "^==" "$LOG/census_fam01.log" | cut -c1-150
device_finish
