#!/usr/bin/env bash
# Session 112's third call (run 562), one H100, cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run>.
# Run 561 (H100, 3e3d655): contiguous L2-61 TF32's unit-stride kernels ran 1.099 ms (forward, with the statistics)
# and 1.267 (grad_input) against 0.973 / 1.086 in runs 554-556, while its other kernels held level (normalize 0.242,
# grad_weight 1.343, input grad 0.344): the channels-last access's runtime branches cost the W-contiguous kernels.
# Now the access is an instantiation of its own (kChannelsLastAccess); the W-contiguous kernels' registers and spills
# equal those before the access (117 kernels compared). And L1-71 TF32 channels_last ran 0.20x eager (fwd 3.614 ms
# against 0.708): K 288 is under the unit-stride form's fp32 bound (384), so it takes another kernel.
# 1. Kernel breakdowns of L2-61 TF32, contiguous then channels_last. Predicted: 0.97 / 1.09 ms contiguous again;
#    channels_last 1.10-1.15 / 1.45-1.55 as in run 561.
# 2. The channels-last tests again (the dispatch moved): the switch's test, every TF32 channels_last conv test.
# 3. L1-71 TF32 channels_last: the breakdown, then quick timings at TCONV_UNIT_STRIDE_MIN_K_FP32 unset / 256 (the
#    unit-stride form with the channels-last access at K 288).
source scripts/device_prelude.sh
end=${END_S:-330}
l2=l2_61_convt3d_relu_groupnorm
l71=l1_71_convt2d_asym_input_square_kernel
breakdowns $end tf32 contiguous $l2
left $(( end - 40 )) && gpu_tests 40 tf32_channels_last tests/test_conv_transpose_gpu.py \
  "tf32 and channels_last and not where_switched"
breakdowns $end tf32 channels_last $l2 $l71
for setting in "TCONV_UNIT_STRIDE_MIN_K_FP32=" "TCONV_UNIT_STRIDE_MIN_K_FP32=256"; do
  left $(( end - 45 )) && LAYOUT=channels_last quick_time "$setting" $l71 tf32 auto $setting | tee -a "$LOG/quick.log"
done
left $(( end - 90 )) && gpu_tests 90 channels_last_switch tests/test_conv_transpose_gpu.py \
  "unit_stride_channels_last_where_switched"
device_finish
