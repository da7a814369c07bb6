#!/usr/bin/env bash
# Session 116, run 572: one H100 (or H200), cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run>.
# New, not yet run: fp32 channels-last sources under the copy form's K bound read in place by the per-tap TMA boxes,
# their A fragments rounded by the MMA threads (tconv_igemm_gather_tma_rounded_kernel; TCONV_TMA_FP32_IN_PLACE, unset
# 1). Run 571 (H100) had real_unet3d_up TF32 channels_last forward 1.558 ms on the cp.async gather (0.883 with the
# [M][N] epilogue, now the default), 0.379 on the whole batch's rounded copy ("igemm_tma", over the 10 % budget).
# Predicted: the in-place forward near the copy form's GEMM (~0.33 ms: 0.379 less the copy's ~0.05) or a little above
# (the fragment loads: the direct form's GEMM ran 0.306 against the copy's 0.218 on DCGAN, run 351).
# 1. The new tests (contract, bitwise against the copy, auto's choice), then the TF32 channels_last sweep.
# 2. Quick timings, TF32 channels_last, default against TCONV_TMA_FP32_IN_PLACE=0, on the two k2 s2 rows and the other
#    channels-last rows whose K the bound may refuse; breakdowns of the two under the default.
# 3. memcheck of the rounded kernel; the rest of the TMA gather's tests; bench rows.
source scripts/device_prelude.sh
end=${END_S:-560}
gpu_tests 150 tma_fp32 tests/test_gather_tma_gpu.py fp32_in_place
left $(( end - 120 )) && gpu_tests 120 cl_tf32 tests/test_conv_transpose_gpu.py "tf32 and channels_last"
for problem in real_unet3d_up real_vae_up real_dcgan_up fam10_convt3d_k3_s2_p1_d2_16x32x32 \
    fam13_convt2d_k3_s5_p1_d2_64x128 fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256; do
  for value in 1 0; do
    left $(( end - 60 )) && LAYOUT=channels_last quick_time "in_place_$value" $problem tf32 auto \
      TCONV_TMA_FP32_IN_PLACE=$value | tee -a "$LOG/quick.log"
  done
done
breakdowns $(( end - 100 )) tf32 channels_last real_unet3d_up real_vae_up
left $(( end - 100 )) && timeout 100 compute-sanitizer --tool memcheck python3 -m pytest -q -p no:cacheprovider \
  tests/test_gather_tma_gpu.py -k "fp32_in_place_under_auto" > "$LOG/memcheck.log" 2>&1
grep -E "ERROR SUMMARY|passed|failed" "$LOG/memcheck.log" | tail -3
left $(( end - 150 )) && gpu_tests 150 tma_rest tests/test_gather_tma_gpu.py "not fp32_in_place"
bench_budget $end tf32 channels_last ${SUITE:-real_unet3d_up real_vae_up real_dcgan_up fam10_convt3d_k3_s2_p1_d2_16x32x32}
device_finish
