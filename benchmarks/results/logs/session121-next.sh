#!/usr/bin/env bash
# For the next session's first call (written in session 121 after its device budget was spent): one H100 (or H200),
# cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run> (~540).
# Run 581 (H200): the fill modes lost (PyTorch fills strided slabs on its generic elementwise kernel: 0.309 ms for
# fam10's three against 0.121 for one whole fill) and stay off. fam10 contiguous grad_weight: the strided call's
# 0.373 ms, compact copies 0.558, the view's ~0.62. Built after it, not run on a GPU:
#  - TCONV_BACKWARD_VIEW_GRAD_WEIGHT=strided (off): the backward view's grad_weight on the strided call where the
#    taps' rows are strided (contiguous data); predicted fam10 TF32 contiguous fwd+bwd 1.289 -> ~1.05 ms (H200);
#  - the memory format of tensors that are not dense by channels-last address order (run 581's backward view test
#    failed on a 2D case: PyTorch's suggest_memory_format gave its view's grad_input contiguous).
# 1. The backward view tests: the contract under the switches, the channels-last grad_input, the strided and compact
#    grad_weight counted.
# 2. fam10 TF32 contiguous quick timings under view / strided / compact; fam10's breakdown under strided.
# 3. Source counters of real_dcgan_up's channels-last grad_input while time is left; verified bench rows of fam10
#    contiguous under strided (then make it the default if its test passed and it pays).
source scripts/device_prelude.sh
end=${END_S:-540}
fam10=fam10_convt3d_k3_s2_p1_d2_16x32x32
left $(( end - 200 )) && gpu_tests 200 phase_view tests/test_phase_view_gpu.py \
  "backward_under_switch or grad_weight_modes"
left $(( end - 90 )) && TCONV_BACKWARD_VIEW_GRAD_WEIGHT=strided timeout 90 \
  compute-sanitizer --tool memcheck python3 scripts/memcheck_session120.py > "$LOG/memcheck.log" 2>&1
grep -E "ERROR SUMMARY|view" "$LOG/memcheck.log" | tail -4
for value in view strided compact; do
  left $(( end - 45 )) && quick_time "grad_weight_$value" $fam10 tf32 auto TCONV_BACKWARD_VIEW_GRAD_WEIGHT=$value \
    | tee -a "$LOG/quick.log"
done
breakdowns_ab $(( end - 100 )) TCONV_BACKWARD_VIEW_GRAD_WEIGHT "strided" "grad|strip|gather|total" tf32 contiguous \
  $fam10
# real_dcgan_up channels-last grad_input (0.761 of 1.508 ms in run 581): its source counters, as run 319 took the
# contiguous form's
ncu_source_kernel $(( end - 90 )) dcgan_cl_grad_input real_dcgan_up tf32 channels_last tconv_igemm_gather_tf32_kernel
TCONV_BACKWARD_VIEW_GRAD_WEIGHT=strided bench_budget $(( end - 10 )) tf32 contiguous $fam10
device_finish
