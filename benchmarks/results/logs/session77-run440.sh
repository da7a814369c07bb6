#!/usr/bin/env bash
# Session 77, run 440 (one H200; prepared in session 72, trimmed in session 75). Run at the commit that adds this
# name, passed as TCONV_COMMIT.
# tests/test_gather_widest_gpu.py in full: not finished on a GPU since session 67's swap rule (run 420 ended it after
# 130 s with 6 passed and 24 skipped: only test_widest_gather_rule_by_grid was left).
source scripts/device_prelude.sh
left 260 && timeout 320 python3 -m pytest -q -p no:cacheprovider tests/test_gather_widest_gpu.py --tb=short \
  > "$LOG/pytest_widest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_widest.log" | tail -8
device_finish
