#!/usr/bin/env bash
# Prepared in session 69 for the next session's second GPU call (one H200; rename to sessionNN-runMMM.sh when it runs).
# 1. Verified bench rows for the 48-channel 16-bit stages (default since 17a09da, timed only by quick_timing in run
#    408): fam07 bf16 (run 407's row 4.549 / 9.971 ms) and fam03 bf16 (run 399's 1.348 / 4.569).
# 2. The unit-stride GPU tests at that default (run 408 ran them with the switch's values set explicitly).
# 3. test_gather_widest_gpu.py, not finished on a GPU since session 67's swap rule (>100 s).
# If the first call made the lean shifted-x kernel a default, its grid (-k "grad_weight_swapped or
# grad_weight_shifted_x", ~120 s) comes before 3 instead.
# Pass TCONV_COMMIT=<literal sha>. Each part starts only if its timeout ends by ~570 s, so device_finish always runs.
source scripts/device_prelude.sh
bench_rows 400 fam07_convt3d_k3_96x96x96:bf16:90 fam03_convt3d_k3_64x64x64:bf16:60
left 440 && timeout 130 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "unit_stride" \
  --tb=short > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest.log" | tail -8
left 470 && timeout 100 python3 -m pytest -q -p no:cacheprovider tests/test_gather_widest_gpu.py --tb=short \
  > "$LOG/pytest_widest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest_widest.log" | tail -6
device_finish
