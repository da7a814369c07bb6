#!/usr/bin/env bash
# Session 78, run 444 (one H200; the session's second device call). Run at the commit that adds this name, passed as
# TCONV_COMMIT. Prepared in session 77.
# 1. tests/test_gather_widest_gpu.py's contract tests under TCONV_GATHER_WIDEST=2: run 440 ran the file in full (7
#    passed) but these 24 skip without the switch (the default rule never takes the 256-column tile on their grids);
# 2. exact-fp32 bench rows of three core problems while the call has time (the exact-fp32 rows are from Nov 27).
source scripts/device_prelude.sh
left 300 && TCONV_GATHER_WIDEST=2 timeout 220 python3 -m pytest -q -p no:cacheprovider \
  tests/test_gather_widest_gpu.py --tb=short -k "meets_the_contract" > "$LOG/pytest_widest2.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_widest2.log" | cut -c1-300 | tail -8
bench_rows 570 l1_73_convt3d_strided_padded_grouped:fp32:70 l1_72_convt3d_asym_kernel_strided_padded_grouped:fp32:70 \
  l1_71_convt2d_asym_input_square_kernel:fp32:70
device_finish
