#!/usr/bin/env bash
# For the next session's first call (written in session 120 after its device budget was spent): one H100 (or H200),
# cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run> (~540).
# Session 120 made the one-residue views the defaults (from 4 phases): fam10 TF32 contiguous 0.431 / 1.382 ms,
# 4.51x / 2.79x eager (run 579). Its forward is a fill of the whole output (0.172 ms) then the stride-1 call (0.224).
# Built after the last call, not run on a GPU: TCONV_PHASE_VIEW_FILL=untapped (fill only the positions the taps
# miss: three slabs for fam10) and =overlap (those slabs on a side stream beside the call). Predicted fam10 CL
# forward ~0.38 ms untapped, ~0.25-0.30 overlapped.
# 1. The view tests (forward, backward, fill modes).
# 2. memcheck of a fam10-like forward under overlap, both layouts.
# 3. Quick timings of fam10 under the three fill modes, both layouts, and in exact fp32 under the views on / off;
#    fam10's breakdown under the two new fill modes.
# 4. Kernel breakdowns of the two weakest fwd+bwd rows while time is left.
source scripts/device_prelude.sh
end=${END_S:-540}
left $(( end - 150 )) && gpu_tests 150 phase_view tests/test_phase_view_gpu.py phase_view
left $(( end - 90 )) && TCONV_PHASE_VIEW_FILL=overlap timeout 90 compute-sanitizer --tool memcheck \
  python3 scripts/memcheck_session120.py > "$LOG/memcheck.log" 2>&1
grep -E "ERROR SUMMARY|view" "$LOG/memcheck.log" | tail -4
for layout in channels_last contiguous; do
  for fill in full untapped overlap; do
    left $(( end - 45 )) && LAYOUT=$layout quick_time "fill_$fill" fam10_convt3d_k3_s2_p1_d2_16x32x32 tf32 auto \
      TCONV_PHASE_VIEW_FILL=$fill | tee -a "$LOG/quick.log"
  done
done
# real_dcgan_up channels_last fwd+bwd ran 0.88x eager in run 577 (no breakdown since the rows form): where its
# backward's time goes
breakdowns $(( end - 200 )) tf32 channels_last real_dcgan_up
# the views in exact fp32 (3xTF32 kernels; never timed): on against off
for value in 1 0; do
  left $(( end - 45 )) && quick_time "views_fp32_$value" fam10_convt3d_k3_s2_p1_d2_16x32x32 fp32 auto \
    TCONV_FORWARD_PHASE_VIEW=$value TCONV_BACKWARD_PHASE_VIEW=$value | tee -a "$LOG/quick.log"
done
breakdowns_ab $(( end - 120 )) TCONV_PHASE_VIEW_FILL "untapped overlap" "Fill|strip" tf32 channels_last \
  fam10_convt3d_k3_s2_p1_d2_16x32x32
# fam10 contiguous: grad_weight on the W-pitch-2 view took 0.62 ms (run 580) against 0.345 channels_last; the
# strided backward's passes beside it, to decide per pass
breakdowns_ab $(( end - 60 )) TCONV_BACKWARD_PHASE_VIEW "1 0" "grad|strip|gather" tf32 contiguous \
  fam10_convt3d_k3_s2_p1_d2_16x32x32
# The weakest contiguous fwd+bwd row, real_hifigan_up (1.18x on the H200 suite run of 11-28)
breakdowns $(( end - 10 )) tf32 contiguous real_hifigan_up
device_finish
