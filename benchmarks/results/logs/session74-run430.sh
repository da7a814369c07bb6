#!/usr/bin/env bash
# Session 74, run 430 (one H200; the session's last ~340 s of device time). Run at the commit that adds this name,
# passed as TCONV_COMMIT.
# Run 429 timed the warp-specialized wgmma grad_weight forced at every tap count: fam01 bf16 7.971 -> 6.735 ms,
# fam08 1.608 -> 1.431, L1-71 1.145 -> 1.237, fam06 a tie; so the rule now also takes 64 output channels and up at any
# tap count, on the specialized kernel. The build, then a verified fam01 bf16 row (and fam08's if time is left) under
# the new rule, then the rule's test.
source scripts/device_prelude.sh
bench_rows 300 fam01_convt2d_k3_1024x1024:bf16:45 fam08_convt1d_k5_d3_131072:bf16:30
left 315 && timeout 25 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "unit_stride_mma_grad_weight_where_planned" > "$LOG/pytest.log" 2>&1
[ -f "$LOG/pytest.log" ] && grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -6
device_finish
