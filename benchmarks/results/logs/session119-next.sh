#!/usr/bin/env bash
# For the next session's first call (written in session 119, never started: its calls after run 576 found no machine),
# one H100 (or H200), cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run> (~540 cold).
# Run 576 (session117-run574.sh) timed three forms that were off by default. Two are now the defaults:
# TCONV_UNIT_STRIDE_CL_STORE_ROWS 2 and TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST 1. The third, TCONV_TMA_UNEQUAL_PHASES,
# stays off until its test has run on a GPU. Two tests failed in run 576 on their own expectations and are fixed: the
# rows test expected the contiguous odd-W case on the rows kernel, and the half-tile test counted 2 of its 3 cases.
# 1. Those tests as fixed, the rows 3D test and the rows planning test under the new default, and the unequal-phases
#    test (never run yet).
# 2. memcheck, one process: a channels-last k2 s2 3D fwd+bwd (the rows grad_weight's channels-last form), a
#    fam10-like TF32 channels_last forward under TCONV_TMA_UNEQUAL_PHASES=1, and a 64 -> 48 unit-stride
#    channels_last forward (the store with shuffled offsets).
# 3. fam10's kernel breakdown under the unequal phases, then verified bench rows (TF32 channels_last) while the call
#    has time.
source scripts/device_prelude.sh
end=${END_S:-560}
left $(( end - 90 )) && gpu_tests 90 rows_cl tests/test_grad_weight_rows_channels_last_gpu.py rows_channels_last
left $(( end - 90 )) && gpu_tests 90 rows_3d tests/test_grad_weight_rows_3d_gpu.py rows_3d
left $(( end - 60 )) && gpu_tests 60 rows_planned tests/test_conv_transpose_gpu.py grad_weight_rows_where_planned
left $(( end - 120 )) && gpu_tests 120 unequal tests/test_gather_tma_gpu.py unequal_phases
left $(( end - 110 )) && gpu_tests 110 cl_store_rows tests/test_conv_transpose_gpu.py "store_rows_switch or \
half_tile_switch or unit_stride_channels_last_where_switched or keeps_256_row_tiles"
left $(( end - 120 )) && TCONV_TMA_UNEQUAL_PHASES=1 timeout 120 compute-sanitizer --tool memcheck \
  python3 scripts/memcheck_session119.py > "$LOG/memcheck.log" 2>&1
grep -E "ERROR SUMMARY|grad_weight|unequal|store_rows" "$LOG/memcheck.log" | tail -4
# Session 119 also built, off, not run: the one-residue forward as a fill and a stride-1 call into a strided view of
# y (TCONV_FORWARD_PHASE_VIEW=1, tconv/_phase_view.py; predicted fam10 TF32 forward ~0.45 ms): its test, then fam10
# under it in both layouts.
left $(( end - 150 )) && gpu_tests 150 phase_view tests/test_phase_view_gpu.py phase_view
for layout in channels_last contiguous; do
  for value in 1 0; do
    left $(( end - 45 )) && LAYOUT=$layout quick_time "phase_view_$value" fam10_convt3d_k3_s2_p1_d2_16x32x32 tf32 auto \
      TCONV_FORWARD_PHASE_VIEW=$value | tee -a "$LOG/quick.log"
  done
done
# fam10's forward missed its prediction under the unequal phases (1.01 ms against ~0.5-0.6; the output is 571 MB,
# ~0.2 ms to write): where its kernels' time goes
TCONV_TMA_UNEQUAL_PHASES=1 breakdowns $(( end - 120 )) tf32 channels_last fam10_convt3d_k3_s2_p1_d2_16x32x32
bench_budget $(( end - 10 )) tf32 channels_last fam01_convt2d_k3_1024x1024 real_unet3d_up real_vae_up \
  fam10_convt3d_k3_s2_p1_d2_16x32x32 real_dcgan_up fam05_convt2d_k3x7_512x512
device_finish
