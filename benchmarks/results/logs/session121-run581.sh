#!/usr/bin/env bash
# Session 121's first call: one H100 (or H200), cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run> (~540).
# session120-next.sh's items (written after session 120's budget was spent) with session 121's compact grad_weight:
# 1. The view tests: forward, backward (channels-last grad_input for channels-last data, the new memory-format
#    rule), the forward's fill modes, and TCONV_BACKWARD_VIEW_COMPACT=1 (grad_weight on compact copies of the taps'
#    view, a batch range at a time).
# 2. memcheck of a fam10-like fwd+bwd under the overlapped fill and the compact grad_weight, both layouts.
# 3. fam10 TF32 quick timings: the three fill modes, both layouts (predicted CL forward 0.404 -> ~0.38 untapped,
#    ~0.25-0.30 overlapped); the compact grad_weight 1 / 0 contiguous (predicted fwd+bwd 1.38 -> ~1.18 ms).
# 4. Breakdowns: fam10 contiguous under the compact switch and under the backward view 1 / 0 (the strided
#    grad_weight's time beside the view's 0.62), fam10 CL under the fill modes, then real_dcgan_up CL.
source scripts/device_prelude.sh
end=${END_S:-540}
fam10=fam10_convt3d_k3_s2_p1_d2_16x32x32
left $(( end - 150 )) && gpu_tests 200 phase_view tests/test_phase_view_gpu.py phase_view
left $(( end - 90 )) && TCONV_PHASE_VIEW_FILL=overlap TCONV_BACKWARD_VIEW_COMPACT=1 timeout 90 \
  compute-sanitizer --tool memcheck python3 scripts/memcheck_session120.py > "$LOG/memcheck.log" 2>&1
grep -E "ERROR SUMMARY|view" "$LOG/memcheck.log" | tail -4
for layout in channels_last contiguous; do
  for fill in full untapped overlap; do
    left $(( end - 45 )) && LAYOUT=$layout quick_time "fill_$fill" $fam10 tf32 auto TCONV_PHASE_VIEW_FILL=$fill \
      | tee -a "$LOG/quick.log"
  done
done
for value in 1 0; do
  left $(( end - 45 )) && quick_time "compact_$value" $fam10 tf32 auto TCONV_BACKWARD_VIEW_COMPACT=$value \
    | tee -a "$LOG/quick.log"
done
breakdowns_ab $(( end - 100 )) TCONV_BACKWARD_VIEW_COMPACT "1" "grad|strip|copy|elementwise|total" tf32 contiguous \
  $fam10
breakdowns_ab $(( end - 60 )) TCONV_BACKWARD_PHASE_VIEW "0" "grad|strip|gather|total" tf32 contiguous $fam10
breakdowns_ab $(( end - 20 )) TCONV_PHASE_VIEW_FILL "overlap" "Fill|strip|total" tf32 channels_last $fam10
breakdowns $(( end - 0 )) tf32 channels_last real_dcgan_up
device_finish
