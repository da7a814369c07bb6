#!/usr/bin/env bash
# Session 118's short call (its device time mostly spent on failed starts; ~300-450 s left). After the build (~150 s
# cold), one A/B timing of each off-by-default form, then their tests while time is left (each test bounded by the
# call's end):
# 1. TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST 1 / 0, real_unet3d_up TF32 channels_last (run 572: fwd+bwd 1.316 ms,
#    grad_weight 0.786 of it; predicted ~0.85).
# 2. TCONV_UNIT_STRIDE_CL_STORE_ROWS 2 / 1, fam01 TF32 channels_last (run 567: forward 6.128 ms; predicted ~4.5-5).
# 3. TCONV_TMA_UNEQUAL_PHASES 1 / 0, fam10 TF32 channels_last (run 572: forward 1.42 ms; predicted ~0.5-0.6).
source scripts/device_prelude.sh
end=${END_S:-300}
for value in 1 0; do
  left $(( end - 30 )) && LAYOUT=channels_last quick_time "rows_cl_$value" real_unet3d_up tf32 auto \
    TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST=$value | tee -a "$LOG/quick.log"
done
for value in 2 1; do
  left $(( end - 35 )) && LAYOUT=channels_last quick_time "cl_store_rows_$value" fam01_convt2d_k3_1024x1024 tf32 auto \
    TCONV_UNIT_STRIDE_CL_STORE_ROWS=$value | tee -a "$LOG/quick.log"
done
for value in 1 0; do
  left $(( end - 30 )) && LAYOUT=channels_last quick_time "unequal_$value" fam10_convt3d_k3_s2_p1_d2_16x32x32 tf32 \
    auto TCONV_TMA_UNEQUAL_PHASES=$value | tee -a "$LOG/quick.log"
done
# the tests, each while 40 s or more are left, bounded by the call's end
remaining() { echo $(( end - 5 - $(date +%s) + start )); }
left $(( end - 40 )) && gpu_tests "$(remaining)" rows_cl tests/test_grad_weight_rows_channels_last_gpu.py \
  rows_channels_last
left $(( end - 40 )) && gpu_tests "$(remaining)" cl_store_rows tests/test_conv_transpose_gpu.py store_rows_switch
left $(( end - 40 )) && gpu_tests "$(remaining)" unequal tests/test_gather_tma_gpu.py unequal_phases
device_finish
