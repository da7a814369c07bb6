#!/usr/bin/env bash
# Session 120's second call: one H100 (or H200), cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run> (~560).
# Run 577 passed the one-residue forward view's test (TCONV_FORWARD_PHASE_VIEW, now on by default) and timed fam10 at
# 0.403 ms (channels_last) against 1.397. Session 120 built the backward's view (TCONV_BACKWARD_PHASE_VIEW=1: the
# stride-1 problem's gradients on a strided view of grad_output, off by default).
# 1. Both view tests; the unequal-phases test with the forward view off in its processes (its fam10-like case would
#    take the view); the rows 3D test's case 0 probe (channels_last on mma.sync in run 577), swap rule on and off.
# 2. Quick timings: fam10 under the backward view 1 / 0 in both layouts, fam12 (1D k3 s2 p1 d2) under the forward
#    view 1 / 0 and the backward view 1 / 0.
# 3. memcheck of fam10-like fwd+bwd under both views; verified bench rows (TF32) for fam10 and fam12 under the
#    backward view, both layouts.
source scripts/device_prelude.sh
end=${END_S:-560}
left $(( end - 120 )) && gpu_tests 120 phase_view tests/test_phase_view_gpu.py phase_view
left $(( end - 90 )) && gpu_tests 90 unequal tests/test_gather_tma_gpu.py unequal_phases
for swap in -1 0; do
  left $(( end - 40 )) && TCONV_GRAD_WEIGHT_SWAP=$swap timeout 40 python3 scripts/rows_3d_swap_probe.py 2>&1 \
    | grep -v Warn | tee -a "$LOG/rows_3d_probe.log" | cut -c1-400
done
for layout in channels_last contiguous; do
  for value in 1 0; do
    left $(( end - 45 )) && LAYOUT=$layout quick_time "backward_view_$value" fam10_convt3d_k3_s2_p1_d2_16x32x32 tf32 \
      auto TCONV_BACKWARD_PHASE_VIEW=$value | tee -a "$LOG/quick.log"
  done
done
for forward in 1 0; do
  for backward in 1 0; do
    left $(( end - 45 )) && quick_time "views_${forward}_$backward" fam12_convt1d_k3_s2_p1_d2_131072 tf32 auto \
      TCONV_FORWARD_PHASE_VIEW=$forward TCONV_BACKWARD_PHASE_VIEW=$backward | tee -a "$LOG/quick.log"
  done
done
left $(( end - 90 )) && TCONV_BACKWARD_PHASE_VIEW=1 timeout 90 compute-sanitizer --tool memcheck \
  python3 scripts/memcheck_session120.py > "$LOG/memcheck.log" 2>&1
grep -E "ERROR SUMMARY|view" "$LOG/memcheck.log" | tail -4
export TCONV_BACKWARD_PHASE_VIEW=1
breakdowns $(( end - 200 )) tf32 channels_last fam10_convt3d_k3_s2_p1_d2_16x32x32
bench_budget $(( end - 100 )) tf32 channels_last fam10_convt3d_k3_s2_p1_d2_16x32x32
bench_budget $(( end - 10 )) tf32 contiguous fam10_convt3d_k3_s2_p1_d2_16x32x32 fam12_convt1d_k3_s2_p1_d2_131072
device_finish
