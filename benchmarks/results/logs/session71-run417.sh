#!/usr/bin/env bash
# Session 71, run 417 (one H200; the session's last device time). Tests of the turn-buffer rule and 16-bit packing
# (run 416: fam02 bf16 fwd+bwd 1.799 ms verified, 1.05x eager):
# 1. tests/test_grad_weight_ordered_gpu.py (the mode-2 test without the 16 -> 16 case; the rule's plan test).
# 2. The shifted-x / swapped grad_weight grid (843 tests; 16-bit shifted-x now packs 2 row slots where its plan orders
#    in several buffers, which small shapes reach).
# 3. test_grid (888 forward + backward cases), stopping at the first failure, until the call's end.
# Pass TCONV_COMMIT=<literal sha>.
source scripts/device_prelude.sh
left 380 && timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_grad_weight_ordered_gpu.py --tb=short \
  > "$LOG/pytest_ordered.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_ordered.log" | tail -12
left 420 && timeout 165 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "grad_weight_swapped or grad_weight_shifted_x" --tb=short > "$LOG/pytest_shifted_x.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_shifted_x.log" | tail -12
budget=$(( 575 - ($(date +%s) - start) ))
[ "$budget" -gt 30 ] && timeout "$budget" python3 -m pytest -q -x -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "test_grid and not grouped and not forced" --tb=short > "$LOG/pytest_grid.log" 2>&1
[ -f "$LOG/pytest_grid.log" ] && { grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_grid.log" | tail -8; \
  echo "grid progress: $(grep -o '[.FEs]' "$LOG/pytest_grid.log" | sort | uniq -c | tr '\n' ' ')"; }
device_finish
