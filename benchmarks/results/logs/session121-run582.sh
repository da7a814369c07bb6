#!/usr/bin/env bash
# Session 121's second call (the budget's last ~440 s): cold; TCONV_COMMIT=<full sha>, END_S (~300).
# Run 581 (H200): the fill modes lost (strided fills on PyTorch's generic elementwise kernel, 0.309 ms for the three
# slabs against 0.121 for one whole fill) and stay off; the strided call's grad_weight on fam10 contiguous took
# 0.373 ms against the compact copies' 0.558 and the view's ~0.62, so the view's backward now runs grad_weight on the
# strided call where the taps' rows are strided (TCONV_BACKWARD_VIEW_GRAD_WEIGHT, default "strided"). The backward
# view test failed on a 2D case's channels-last grad_input (PyTorch's suggest_memory_format rule); tconv's rule is
# now addresses increasing in channels-last order.
# 1. fam10 TF32 contiguous quick timings under the default and under "view" (predicted fwd+bwd 1.289 -> ~1.05 ms).
# 2. The backward view test (contract under both switches, strided grad_weight counted, channels-last grad_input).
source scripts/device_prelude.sh
end=${END_S:-300}
fam10=fam10_convt3d_k3_s2_p1_d2_16x32x32
for value in strided view; do
  left $(( end - 30 )) && quick_time "grad_weight_$value" $fam10 tf32 auto TCONV_BACKWARD_VIEW_GRAD_WEIGHT=$value \
    | tee -a "$LOG/quick.log"
done
left $(( end - 40 )) && gpu_tests $(( end - ($(date +%s) - start) )) phase_view tests/test_phase_view_gpu.py \
  backward_under_switch
device_finish
