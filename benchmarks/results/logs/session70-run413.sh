#!/usr/bin/env bash
# Session 70, run 413 (one H200; the session's last device time, ~750 s):
# 1. GPU tests -k "test_grad_weight_shifted_x and tf32": run 412's 5 failures were the test's kernel-name pattern,
#    which did not know the lean kernel (their contract checks had passed); the pattern takes it since.
# 2. Verified bench rows for the 48-channel 16-bit stages (default since 17a09da, timed by quick_timing only):
#    fam07 bf16 (run 407: 4.549 / 9.971 ms) and fam03 bf16 (run 399: 1.348 / 4.569).
# 3. The split cap's hypothesis, quick_timing fam02 bf16 + TF32: TCONV_WORKSPACE_PERCENT 10 (the rule) / 40 (4x the
#    splits' memory) x TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN unset / 4 / 2: whether more splits speed its grad_weight and let
#    packed rows pay in bf16 (worth k workspace buffers within the same memory next).
# 4. The unit-stride GPU tests at their default, if time is left.
# Pass TCONV_COMMIT=<literal sha>. Each part starts only if its timeout ends by ~570 s, so device_finish always runs.
source scripts/device_prelude.sh
left 480 && timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "test_grad_weight_shifted_x and tf32" --tb=short > "$LOG/pytest_shifted_x.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest_shifted_x.log" | tail -6
bench_rows 500 fam07_convt3d_k3_96x96x96:bf16:90 fam03_convt3d_k3_64x64x64:bf16:60
for setting in 10: 40: 40:4 40:2 10:; do
  IFS=: read -r percent lean <<< "$setting"
  left 545 && (cd scripts && TCONV_WORKSPACE_PERCENT=$percent TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN=$lean timeout 25 \
    python3 quick_timing.py fam02_convt3d_k3x5x7_16x32x64 --precision bf16 tf32 --runs 8 --warmup 2 \
    --json "$LOG/split_fam02_${percent}_${lean:-rule}.json" 2>&1 | grep -v Warn | sed "s/^/PERCENT=$percent LEAN=$lean /") \
    | tee -a "$LOG/timing_split.log"
done
left 440 && timeout 130 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "unit_stride" \
  --tb=short > "$LOG/pytest_unit_stride.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest_unit_stride.log" | tail -8
device_finish
