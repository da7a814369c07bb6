#!/usr/bin/env bash
# Prepared in session 72 for the next session's second GPU call (one H200; rename to sessionNN-runMMM.sh when it runs,
# fix this line, commit, pass TCONV_COMMIT=<literal sha>).
# 1. tests/test_gather_widest_gpu.py in full (not finished on a GPU since session 67's swap rule: run 420 ended it
#    after 130 s, 6 passed and 24 skipped so far).
# 2. The 1D strip tests in every mode at the k16 defaults (the forward, grad_input, grad_weight grids and the
#    unit-stride ones), the ordered split-K tests, and test_grid (888 in run 417).
source scripts/device_prelude.sh
left 260 && timeout 320 python3 -m pytest -q -p no:cacheprovider tests/test_gather_widest_gpu.py --tb=short \
  > "$LOG/pytest_widest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_widest.log" | tail -8
left 500 && timeout 80 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "strip or test_grid" > "$LOG/pytest_strip_grid.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_strip_grid.log" | tail -8
device_finish
