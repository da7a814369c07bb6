#!/usr/bin/env bash
# Session 112's second call (run 561), one H100, cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run>.
# Run 560 (H100, 6dcc338): under TCONV_UNIT_STRIDE_CL_ACCESS=1 the switch's test, the unit-stride TF32 tests and the
# channels-last store-statistics tests passed, memcheck 0 errors; TF32 channels_last forward / fwd+bwd ms: L2-61
# 3.766 / 10.853 (switch unset) -> 2.926 / 9.479 (=1) -> 1.432 / 5.775 (=1 with the access); fam03 6.268 / 15.476 ->
# 4.588 / 12.484 -> 2.552 / 8.351. So both are now the defaults (fp32 data, channels_last). Contiguous L2-61 read
# 1.355 / 4.492 there against 1.237 / 4.213 in run 554 (another H100): the machine or the recompiled kernels?
# 1. Contiguous L2-61 TF32 kernel breakdown: the kernels the access does not touch (normalize 0.242, grad_weight
#    1.325, backward sums 0.225, input grad 0.345 ms in runs 554-556) size the machine; the unit-stride kernels
#    (forward 0.973, grad_input 1.086) against them. Then the channels-last breakdown under the new defaults.
# 2. Tests under the new defaults: the switch's test (unset / 1 / 0, and the per-channel access), every TF32
#    channels_last test of the conv sweep (463), the fused and optimize() GPU files, memcheck of the workload.
#    Predicted: pass, 0 errors.
# 3. The TF32 channels_last suite while time remains (the first suite-wide measurement); rerun warm with
#    SKIP_TESTS=1 for the rest.
source scripts/device_prelude.sh
end=${END_S:-540}
l2=l2_61_convt3d_relu_groupnorm
tests=${SKIP_TESTS:+skip}
[ -z "$tests" ] && breakdowns $end tf32 contiguous $l2
[ -z "$tests" ] && breakdowns $end tf32 channels_last $l2
[ -z "$tests" ] && left $(( end - 150 )) && gpu_tests 150 channels_last_switch tests/test_conv_transpose_gpu.py \
  "unit_stride_channels_last_where_switched or unit_stride_forward_where_planned"
[ -z "$tests" ] && left $(( end - 200 )) && gpu_tests 200 tf32_channels_last tests/test_conv_transpose_gpu.py \
  "tf32 and channels_last and not where_switched"
[ -z "$tests" ] && left $(( end - 60 )) && gpu_tests 60 fused_all tests/test_fused_gpu.py "not nothing"
[ -z "$tests" ] && left $(( end - 30 )) && gpu_tests 30 optimize_all tests/test_optimize_gpu.py "not nothing"
if [ -z "$tests" ] && left $(( end - 60 )); then
  timeout 60 compute-sanitizer --tool memcheck --kernel-name kns=unit_stride_forward \
    python3 scripts/unit_stride_cl_sanitize.py > "$LOG/memcheck_cl.log" 2>&1
  tail -4 "$LOG/memcheck_cl.log"
fi
[ -n "$tests" ] && left $(( end - 45 )) && quick_time contiguous $l2 tf32 auto | tee -a "$LOG/quick.log"
bench_budget $end tf32 channels_last ${SUITE:---suite all}
device_finish
