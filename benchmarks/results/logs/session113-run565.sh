#!/usr/bin/env bash
# Session 113's third call (run 565), one H100 (or H200), cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run>.
# Run 564's TF32 channels_last bench found fam01 (2D, 64 -> 64, k3, K 576) at fwd 13.137 ms, fwd+bwd 32.042 (0.22x /
# 0.37x eager): its K takes the 64-channel half tile, which has no channels-last access and reads and writes a
# channel at a time. fp32 channels-last calls now keep to the 256-row tiles (TCONV_UNIT_STRIDE_CL_HALF_TILE=1 lets
# them take the half tiles, for this A/B). This call:
# 1. fam01 TF32 channels_last quick timing under the default and under TCONV_UNIT_STRIDE_CL_HALF_TILE=1. Predicted:
#    fwd 13.1 -> 4-5 ms (contiguous fam01 3.6 on the half tile; the channels-last access cost L2-61's kernels 17 %).
# 2. The new test (both tiles' cases: fam01's 64-channel half tile and fam02's tap-pairs one) and the TF32
#    channels_last conv tests.
# 3. The TF32 channels_last suite rows run 564 did not reach, while the call has time.
source scripts/device_prelude.sh
end=${END_S:-440}
f1=fam01_convt2d_k3_1024x1024
for setting in "TCONV_UNIT_STRIDE_CL_HALF_TILE=" "TCONV_UNIT_STRIDE_CL_HALF_TILE=1"; do
  left $(( end - 45 )) && LAYOUT=channels_last quick_time "$setting" $f1 tf32 auto $setting | tee -a "$LOG/quick.log"
done
left $(( end - 100 )) && gpu_tests 100 cl_tf32 tests/test_conv_transpose_gpu.py "tf32 and channels_last"
bench_budget $end tf32 channels_last ${SUITE:-fam01_convt2d_k3_1024x1024 fam02_convt3d_k3x5x7_16x32x64 \
  fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256 fam07_convt3d_k3_96x96x96 fam03_convt3d_k3_64x64x64}
device_finish
