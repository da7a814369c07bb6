#!/usr/bin/env bash
# Prepared in session 111 for the next session's first call (run 560), one H100 or H200, cold; TCONV_COMMIT=<full
# sha>, END_S=<seconds it may run>. Runs 558-559 (H100, f40bff6): TF32 channels_last trails cuDNN's best on the
# unit-stride 3D shapes (L2-61 fwd 3.775 ms, 0.66x cuDNN-b, fwd+bwd 0.79x eager; fam03 fwd 0.38x cuDNN-b): "auto"
# runs them on the cp.async mma.sync gathers (L2-61: grad_input 4.325, forward 3.318, grad_weight 2.289 ms), because
# the unit-stride wgmma kernel's rule admits W-contiguous tensors only (it takes any strides: its tests run
# channels_last under "igemm_strip"). TCONV_UNIT_STRIDE_CHANNELS_LAST=1 (session 111) lets "auto" take it for fp32.
# 1. The switch's test (contract and launches, fresh processes) and the where-planned test. Predicted: pass.
# 2. L2-61 and fam03, TF32 channels_last, quick timing under the switch unset / 1. Predicted: L2-61 forward 3.77 ->
#    1.3-2.6 ms (the producer's x loads are 4 scalar loads a channel quad at a stride of C_in floats between lanes,
#    ~8x the L1 wavefronts of the contiguous layout's; one row a thread in the staged store, 4 bytes a sector), fwd+bwd
#    11.3 -> 5-8 ms (grad_input on the same kernel; grad_weight stays the mma.sync one).
# 3. L2-61's kernel breakdown under the switch: the unit-stride kernels' times against contiguous (0.973 / 1.086).
# 4. Forced algorithms reaching other wgmma kernels on L2-61 (one process): igemm_tma, igemm_tma_window,
#    igemm_tma_direct, against "auto".
# 5. The TF32 channels_last suite under the defaults while time remains (the first suite-wide measurement).
source scripts/device_prelude.sh
end=${END_S:-570}
l2=l2_61_convt3d_relu_groupnorm
f3=fam03_convt3d_k3_64x64x64
left $(( end - 400 )) && gpu_tests 120 channels_last_switch tests/test_conv_transpose_gpu.py \
  "unit_stride_channels_last_where_switched or unit_stride_forward_where_planned"
for problem in $l2 $f3; do
  for v in "" 1; do
    left $(( end - 250 )) && LAYOUT=channels_last quick_time "unit_stride_cl_${v:-unset}" $problem tf32 auto \
      TCONV_UNIT_STRIDE_CHANNELS_LAST=$v | tee -a "$LOG/quick.log"
  done
done
breakdowns_ab $(( end - 150 )) TCONV_UNIT_STRIDE_CHANNELS_LAST "1" "unit_stride_forward|gather|grad_weight|total" tf32 \
  channels_last $l2
left $(( end - 150 )) && (cd scripts && timeout 140 python3 quick_timing.py $l2 --precision tf32 \
  --layout channels_last --algorithm auto igemm_tma igemm_tma_window igemm_tma_direct --runs 10 --warmup 2 2>&1 \
  | grep -v Warn | tee -a "$LOG/quick.log")
bench_budget $end tf32 channels_last --suite all
device_finish
