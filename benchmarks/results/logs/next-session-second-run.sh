#!/usr/bin/env bash
# Prepared in session 70 for the next session's second GPU call (one H200; rename to sessionNN-runMMM.sh when it runs).
# 1. If the first call made TCONV_GRAD_WEIGHT_TURN_BUFFERS (or 16-bit packing with it) a default: the grad_weight grid
#    (-k "grad_weight_swapped or grad_weight_shifted_x", ~150 s) and verified bench rows for fam02 bf16 / TF32 and
#    the rows it moved. Otherwise skip to 2.
# 2. test_gather_widest_gpu.py, not finished on a GPU since session 67's swap rule (>100 s).
# 3. L2-61 TF32 and bf16 bench rows (issue 5) at the current defaults.
# Pass TCONV_COMMIT=<literal sha>. Each part starts only if its timeout ends by ~570 s, so device_finish always runs.
source scripts/device_prelude.sh
left 400 && timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "grad_weight_swapped or grad_weight_shifted_x" --tb=short > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest.log" | tail -8
bench_rows 470 fam02_convt3d_k3x5x7_16x32x64:bf16:45 fam02_convt3d_k3x5x7_16x32x64:tf32:45
left 450 && timeout 110 python3 -m pytest -q -p no:cacheprovider tests/test_gather_widest_gpu.py --tb=short \
  > "$LOG/pytest_widest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest_widest.log" | tail -6
bench_rows 570 l2_61_convt3d_relu_groupnorm:tf32:45 l2_61_convt3d_relu_groupnorm:bf16:45
device_finish
