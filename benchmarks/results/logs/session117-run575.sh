#!/usr/bin/env bash
# A second call after session117-run574.sh (warm where it can be), for what run 574 leaves: the TMA gather over
# phases of unequal grids (TCONV_TMA_UNEQUAL_PHASES=1, off by default until measured). fam10's TF32 forward (k3 s2 p1
# d2, 65 outputs per dimension: the odd ones, 32, take every tap, the even ones, 33, none) channels_last: breakdowns
# under 1 and 0, and contiguous under 1 (the copy form's K bound still refuses it there: level expected). Run 572
# (H100): channels_last fam10 forward 1.42 ms on the cp.async gather, eager 1.35. Predicted under 1: ~0.5-0.6 ms (1.12
# GB written, 7/8 of it zeros by blocks with no K loop; the tapped phase's 27 taps x 32 channels on 64-column tiles).
# Then the TF32 channels_last sweep under both new switches (the rows grad_weight, the unequal phases), if run 574
# made them look worth a default.
source scripts/device_prelude.sh
end=${END_S:-400}
switch=TCONV_TMA_UNEQUAL_PHASES
left $(( end - 60 )) && quick_time "unequal_contiguous_1" fam10_convt3d_k3_s2_p1_d2_16x32x32 tf32 auto $switch=1 \
  | tee -a "$LOG/quick.log"
breakdowns_ab $(( end - 90 )) $switch "1 0" "forward|igemm_gather" tf32 channels_last \
  fam10_convt3d_k3_s2_p1_d2_16x32x32
# Session 118 added: whether the in-place TMA form (wgmma, x read in place) beats the strip unit-stride kernel on
# fam01's TF32 channels_last forward (6.12 ms there against eager's 2.92, run 567: long_sb on the x loads, run 571).
# "igemm_tma" with TCONV_TMA_FP32_IN_PLACE=2 takes the rounded in-place form wherever the source maps.
for mode in 2; do
  left $(( end - 45 )) && LAYOUT=channels_last quick_time "fam01_tma_in_place_$mode" fam01_convt2d_k3_1024x1024 tf32 \
    igemm_tma TCONV_TMA_FP32_IN_PLACE=$mode | tee -a "$LOG/quick.log"
done
# and on the warp-specialized 64-channel form (a producer warpgroup loading x two stages ahead; run 571's samples
# had the MMA threads' own loads at long_sb 19.5 %, wait 28 %, with 8 warps an SM): 1 against the default 0.
for value in 1 0; do
  left $(( end - 45 )) && LAYOUT=channels_last quick_time "fam01_specialized_64_$value" fam01_convt2d_k3_1024x1024 \
    tf32 auto TCONV_UNIT_STRIDE_SPECIALIZED_64=$value | tee -a "$LOG/quick.log"
done
left $(( end - 200 )) && (export TCONV_TMA_UNEQUAL_PHASES=1 TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST=1
  gpu_tests 200 cl_tf32 tests/test_conv_transpose_gpu.py "tf32 and channels_last")
device_finish
