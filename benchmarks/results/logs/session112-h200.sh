#!/usr/bin/env bash
# Prepared in session 111 for a call on an H200 (kind nvidia-h200; run 561 or later), cold or warm; TCONV_COMMIT=<full
# sha>, END_S=<seconds it may run>. Session 111 made two defaults from H100 measurements only: the shifted-x row ring
# on the 2D rows (runs 552, 554, 555: fam06 2.061 -> 1.916 ms, fam05 2.147 -> 1.845, fam01 4.167 -> 3.354; run 544's
# H200 rows, 2.007 -> 2.032 and 1.916 -> 1.921, were the plain ring's, before the overlap) and the store statistics
# for fp32 data (run 554: L2-61 TF32 conv kernel 0.888 -> 0.973 ms against the 0.126 ms pass).
# 1. TF32 kernel breakdowns, TCONV_GRAD_WEIGHT_SHIFTED_X_RING 0 / 1, on fam01, fam05, fam06. Predicted: the ring ahead
#    by 5-20 % as on the H100; if it trails on any, the rule needs the device (the two GPUs share sm_90).
# 2. L2-61 TF32, TCONV_CONV_STORE_STATISTICS 0 / 1: kernel breakdown and quick timing. Predicted: the forward 0.02-0.04
#    ms faster with it.
source scripts/device_prelude.sh
end=${END_S:-570}
l2=l2_61_convt3d_relu_groupnorm
breakdowns_ab $(( end - 170 )) TCONV_GRAD_WEIGHT_SHIFTED_X_RING "0 1" "grad_weight|total" tf32 contiguous \
  fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256
breakdowns_ab $(( end - 90 )) TCONV_CONV_STORE_STATISTICS "0 1" "unit_stride_forward|stats_channels|total" tf32 \
  contiguous $l2
for v in 0 1; do
  left $(( end - 45 )) && quick_time "store_stats_$v" $l2 tf32 auto TCONV_CONV_STORE_STATISTICS=$v \
    | tee -a "$LOG/quick.log"
done
device_finish
