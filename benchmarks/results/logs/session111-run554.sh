#!/usr/bin/env bash
# Session 111's first call (run 554), one H100 or H200, cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run>.
# Run 553 (session 110's last call) measured nothing: its build took 182 s of its 211. This call is its plan, then
# the row ring on the 2D rows.
# 1. The store-statistics tests on commit 9d1c271's passes (0/1 row weights as FFMAs, per-row partial sums, a
#    one-sample path). Predicted: pass.
# 2. L2-61 TF32 A/B (TCONV_CONV_STORE_STATISTICS 0 / 1), quick timing then kernel breakdown. Predicted: the conv
#    kernel's excess (run 551: +0.231 ms) -> ~0.08-0.12 ms, against the 0.131 ms statistics pass it removes.
# 3. fam05 (k3x7) TF32 grad_weight, TCONV_GRAD_WEIGHT_SHIFTED_X_RING 0 / 1. Run 552 (H100) gave fam06 (k3x5) 2.061
#    -> 1.916 ms with the overlapping ring; run 544 (H200, the plain ring) gave fam05 1.916 -> 1.921. Predicted:
#    -3 to -7 %.
# 4. The ring's tests (2D and 3D cases, bitwise against the measured kernel). Predicted: pass.
source scripts/device_prelude.sh
end=${END_S:-570}
l2=l2_61_convt3d_relu_groupnorm
left $(( end - 380 )) && gpu_tests 40 store_stats tests/test_fused_gpu.py "conv_store"
for v in 0 1; do
  left $(( end - 300 )) && quick_time "store_stats_$v" $l2 tf32 auto TCONV_CONV_STORE_STATISTICS=$v | tee -a "$LOG/quick.log"
done
breakdowns_ab $(( end - 180 )) TCONV_CONV_STORE_STATISTICS "0 1" "unit_stride_forward|stats_channels|total" tf32 \
  contiguous $l2
breakdowns_ab $(( end - 100 )) TCONV_GRAD_WEIGHT_SHIFTED_X_RING "0 1" "shifted_x|total" tf32 contiguous \
  fam05_convt2d_k3x7_512x512
left $(( end - 30 )) && gpu_tests $(( end - 5 - ($(date +%s) - start) )) ring tests/test_conv_transpose_gpu.py \
  "shifted_x_ring"
device_finish
