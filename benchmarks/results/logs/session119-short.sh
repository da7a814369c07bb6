#!/usr/bin/env bash
# Session 119's short form of session119-next.sh, for a call with ~400 s of device time (never started in session
# 119): the tests behind the new defaults (TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST, TCONV_UNIT_STRIDE_CL_STORE_ROWS) and
# the one behind TCONV_TMA_UNEQUAL_PHASES, still off (first: it never ran), then the memcheck of one call on each.
# TCONV_COMMIT=<full sha>, END_S=<seconds it may run>.
source scripts/device_prelude.sh
end=${END_S:-400}
left $(( end - 100 )) && gpu_tests 100 unequal tests/test_gather_tma_gpu.py unequal_phases
left $(( end - 80 )) && TCONV_TMA_UNEQUAL_PHASES=1 timeout 80 compute-sanitizer --tool memcheck \
  python3 scripts/memcheck_session119.py > "$LOG/memcheck.log" 2>&1
grep -E "ERROR SUMMARY|grad_weight|unequal|store_rows" "$LOG/memcheck.log" | tail -4
left $(( end - 60 )) && gpu_tests 60 rows_cl tests/test_grad_weight_rows_channels_last_gpu.py rows_channels_last
left $(( end - 60 )) && gpu_tests 60 rows_3d tests/test_grad_weight_rows_3d_gpu.py rows_3d
left $(( end - 60 )) && gpu_tests 60 half_tile tests/test_conv_transpose_gpu.py half_tile_switch
left $(( end - 40 )) && gpu_tests 40 rows_planned tests/test_conv_transpose_gpu.py grad_weight_rows_where_planned
TCONV_TMA_UNEQUAL_PHASES=1 breakdowns $(( end - 5 )) tf32 channels_last fam10_convt3d_k3_s2_p1_d2_16x32x32
device_finish
