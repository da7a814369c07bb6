#!/usr/bin/env bash
# Prepared in session 111 for the next session's first call (run 560), one H100 or H200, cold; TCONV_COMMIT=<full
# sha>, END_S=<seconds it may run>. Runs 558-559 (H100, f40bff6): TF32 channels_last trails cuDNN's best on the
# unit-stride 3D shapes (L2-61 fwd 3.775 ms, 0.66x cuDNN-b, fwd+bwd 0.79x eager; fam03 fwd 0.38x cuDNN-b): "auto"
# runs them on the cp.async mma.sync gathers (L2-61: grad_input 4.325, forward 3.318, grad_weight 2.289 ms), because
# the unit-stride wgmma kernel's rule admits W-contiguous tensors only (it takes any strides: its tests run
# channels_last under "igemm_strip"). TCONV_UNIT_STRIDE_CHANNELS_LAST=1 (session 111) lets "auto" take it for fp32.
# Also new in session 111, untested: the kernel's channels-last access (TCONV_UNIT_STRIDE_CL_ACCESS=1, off by
# default; then only channels-last fp32 tensors take it): a K group of x as one 16-byte load, the staged store with
# lanes along channels.
# 0. The fused GPU tests and optimize()'s, complete: since session 111 fp32 blocks take the store statistics by
#    default, and only their own tests (75) ran under it (run 557). Predicted: pass.
# 1. Under CL_ACCESS=1: the switch's test (contract and launches, fresh processes), the unit-stride kernel's TF32
#    tests and the store-statistics tests in channels_last (their channels_last cases under "igemm_strip" take the new
#    access), and memcheck of scripts/unit_stride_cl_sanitize.py; then the where-planned test under the defaults.
#    Predicted: pass, 0 errors.
# 2. L2-61 and fam03, TF32 channels_last, quick timing: switch unset; 1 (the per-channel loads: 4 scalar loads a K
#    group, lanes C_in floats apart; one row a thread in the store); 1 with CL_ACCESS=1.
#    Predicted: L2-61 forward 3.77 -> 1.3-2.6 ms -> 1.2-1.5 ms; fwd+bwd 11.3 -> ~5-6 ms (grad_input on the same kernel;
#    grad_weight stays the mma.sync one). And contiguous L2-61 (the new branch in the loads, never taken there):
#    forward 1.237 ms in run 554, predicted level.
# 3. L2-61's kernel breakdown under the switch: the unit-stride kernels' times against contiguous (0.973 / 1.086).
# 4. Forced algorithms reaching other wgmma kernels on L2-61 (one process): igemm_tma, igemm_tma_window,
#    igemm_tma_direct, against "auto".
# 5. The TF32 channels_last suite under the defaults while time remains (the first suite-wide measurement).
# On a cold machine (build 180-240 s) items 0-1 and some of 2 fill the call (its guards skip what cannot end in
# time); rerun the script on the warm machine (build ~10 s) with SKIP_TESTS=1 for the rest.
source scripts/device_prelude.sh
end=${END_S:-570}
l2=l2_61_convt3d_relu_groupnorm
f3=fam03_convt3d_k3_64x64x64
tests=${SKIP_TESTS:+skip}
[ -z "$tests" ] && left $(( end - 100 )) && gpu_tests 100 fused_all tests/test_fused_gpu.py "not nothing"
[ -z "$tests" ] && left $(( end - 50 )) && gpu_tests 50 optimize_all tests/test_optimize_gpu.py "not nothing"
[ -z "$tests" ] && left $(( end - 130 )) && (export TCONV_UNIT_STRIDE_CL_ACCESS=1; gpu_tests 130 channels_last_access \
  tests/test_conv_transpose_gpu.py "unit_stride_channels_last_where_switched or (strip_unit_stride and tf32)")
[ -z "$tests" ] && left $(( end - 40 )) && (export TCONV_UNIT_STRIDE_CL_ACCESS=1; gpu_tests 40 conv_store_access \
  tests/test_fused_gpu.py "conv_store_makes_group_statistics and channels_last")
if [ -z "$tests" ] && left $(( end - 60 )); then
  TCONV_UNIT_STRIDE_CL_ACCESS=1 timeout 60 compute-sanitizer --tool memcheck --kernel-name kns=unit_stride_forward \
    python3 scripts/unit_stride_cl_sanitize.py > "$LOG/memcheck_cl.log" 2>&1
  tail -4 "$LOG/memcheck_cl.log"
fi
[ -z "$tests" ] && left $(( end - 30 )) && gpu_tests 30 where_planned tests/test_conv_transpose_gpu.py \
  "unit_stride_forward_where_planned"
left $(( end - 45 )) && quick_time contiguous $l2 tf32 auto | tee -a "$LOG/quick.log"
for problem in $l2 $f3; do
  for setting in "TCONV_UNIT_STRIDE_CHANNELS_LAST=" "TCONV_UNIT_STRIDE_CHANNELS_LAST=1" \
      "TCONV_UNIT_STRIDE_CHANNELS_LAST=1 TCONV_UNIT_STRIDE_CL_ACCESS=1"; do
    # shellcheck disable=SC2086
    left $(( end - 45 )) && LAYOUT=channels_last quick_time "$(echo $setting | tr ' ' '+')" $problem tf32 auto \
      $setting | tee -a "$LOG/quick.log"
  done
done
breakdowns_ab $end TCONV_UNIT_STRIDE_CHANNELS_LAST "1" "unit_stride_forward|gather|grad_weight|total" tf32 \
  channels_last $l2
left $(( end - 150 )) && (cd scripts && timeout 140 python3 quick_timing.py $l2 --precision tf32 \
  --layout channels_last --algorithm auto igemm_tma igemm_tma_window igemm_tma_direct --runs 10 --warmup 2 2>&1 \
  | grep -v Warn | tee -a "$LOG/quick.log")
bench_budget $end tf32 channels_last --suite all
device_finish
