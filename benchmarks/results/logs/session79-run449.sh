#!/usr/bin/env bash
# Session 79, run 449 (one H200; the session's last device time). Run at the commit that adds this name, passed as
# TCONV_COMMIT.
# The shifted-x grad_weight's tests after two producer changes: the measured and narrow forms' row offsets worked out
# once per block (run 448's build; timed there, untested), and the x window's issue written once
# (issue_shifted_x_window, for the lean, channel-tile and other forms: the same instructions in each of the 94
# kernels, one address computed earlier).
# 1. every shifted-x test (-k shifted_x: the grid in every layout and mode, where-planned, narrow, lean, slots,
#    channel tiles, lane boxes);
# 2. while time is left, fam04 bf16 fwd+bwd "auto" once more.
source scripts/device_prelude.sh
left 300 && timeout $(( 560 - ($(date +%s) - start) )) python3 -m pytest -q -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py --tb=short -k "shifted_x" > "$LOG/pytest_shifted_x.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_shifted_x.log" | cut -c1-300 | tail -12
left 560 && (cd scripts && timeout 30 python3 quick_timing.py fam04_convt1d_k3_65536 --precision bf16 --runs 10 \
  --warmup 2 2>&1 | grep -v Warn | tee "$LOG/timing.log")
device_finish
