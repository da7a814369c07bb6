#!/usr/bin/env bash
# Session 111's second call (run 555), one H100 or H200, cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run>.
# Run 554 (H100, 8913b12): the store statistics (9d1c271's passes) passed their 74 tests and won in TF32 (L2-61 conv
# kernel 0.888 -> 0.973 ms against the 0.126 ms pass; forward 1.267 -> 1.237, fwd+bwd 4.281 -> 4.213); the
# overlapping row ring won on fam05 (grad_weight 2.147 -> 1.845 ms) as on fam06 in run 552. This commit makes both
# the defaults (store statistics for fp32 data only, the ring wherever it applies).
# 1. The store-statistics tests, with the rule's new case. Predicted: pass.
# 2. L2-61 store statistics 0 / 1 in bf16 (quick timing, then kernel breakdown) and in TF32 channels_last (quick).
#    Predicted: bf16 -0.02 to -0.04 ms on the forward (the pass it removes is ~0.07 ms in bf16), TF32 CL as TF32.
# 3. The ring 0 / 1 on the other 2D unit-stride rows (fam01, fam11, L1-71: TF32 kernel breakdowns), to see which
#    take it and what it does there. Predicted: where taken, -5 to -14 % on grad_weight, as fam05/fam06.
# 4. The ring's tests and the shifted-x where-planned tests under the new rule. Predicted: pass.
source scripts/device_prelude.sh
end=${END_S:-570}
l2=l2_61_convt3d_relu_groupnorm
left $(( end - 400 )) && gpu_tests 40 store_stats tests/test_fused_gpu.py "conv_store"
for v in 0 1; do
  left $(( end - 330 )) && quick_time "store_stats_$v" $l2 bf16 auto TCONV_CONV_STORE_STATISTICS=$v | tee -a "$LOG/quick.log"
done
for v in 0 1; do
  left $(( end - 280 )) && LAYOUT=channels_last quick_time "store_stats_cl_$v" $l2 tf32 auto \
    TCONV_CONV_STORE_STATISTICS=$v | tee -a "$LOG/quick.log"
done
breakdowns_ab $(( end - 220 )) TCONV_CONV_STORE_STATISTICS "0 1" "unit_stride_forward|stats_channels|total" bf16 \
  contiguous $l2
breakdowns_ab $(( end - 60 )) TCONV_GRAD_WEIGHT_SHIFTED_X_RING "0 1" "grad_weight|total" tf32 contiguous \
  fam11_convt2d_k3x7_p1x3_512x1024 l1_71_convt2d_asym_input_square_kernel fam01_convt2d_k3_1024x1024
left $(( end - 30 )) && gpu_tests $(( end - 5 - ($(date +%s) - start) )) ring tests/test_conv_transpose_gpu.py \
  "shifted_x_ring or shifted_x_where_planned"
device_finish
