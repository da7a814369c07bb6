#!/usr/bin/env bash
# Session 120's third call: one H100 (or H200), cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run> (~580).
# Run 578: the backward's view passed its contract (its test failed only on a kernel-name expectation: the stride-1
# call can keep the strided call's kernel names), fam10 fwd+bwd 1.156 / 1.236 ms (CL), 1.384 / 1.472 (contiguous);
# fam12 (1D, 2 phases) lost under the forward's view (1.360 / 0.978 ms). Now both views are on by default from 4
# phases (pays()), the view test counts the backwards through the view, and the rows 3D test hands channels-last
# calls a channels-last grad_output (run 578's probe: the rows kernel then, swap rule on or off).
# 1. Both view tests and the rows 3D test under the new defaults.
# 2. Quick timings of fam10 (both layouts) and fam12 under the defaults; fam10's kernel breakdown (channels_last):
#    where its backward's ~0.75 ms goes (floor ~0.2 ms of tensor-core work).
# 3. fam01's channels-last forward source counters (0.59x eager, the store form on); verified bench rows while time
#    is left.
source scripts/device_prelude.sh
end=${END_S:-580}
left $(( end - 120 )) && gpu_tests 120 phase_view tests/test_phase_view_gpu.py phase_view
left $(( end - 60 )) && gpu_tests 60 rows_3d tests/test_grad_weight_rows_3d_gpu.py rows_3d
for layout in channels_last contiguous; do
  left $(( end - 45 )) && LAYOUT=$layout quick_time defaults fam10_convt3d_k3_s2_p1_d2_16x32x32 tf32 auto \
    | tee -a "$LOG/quick.log"
done
left $(( end - 45 )) && quick_time defaults fam12_convt1d_k3_s2_p1_d2_131072 tf32 auto | tee -a "$LOG/quick.log"
breakdowns $(( end - 60 )) tf32 channels_last fam10_convt3d_k3_s2_p1_d2_16x32x32
ncu_source_kernel $(( end - 60 )) fam01_cl_forward fam01_convt2d_k3_1024x1024 tf32 channels_last strip_unit_stride_forward
bench_budget $(( end - 10 )) tf32 contiguous fam10_convt3d_k3_s2_p1_d2_16x32x32 fam12_convt1d_k3_s2_p1_d2_131072
device_finish
