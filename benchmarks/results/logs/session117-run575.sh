#!/usr/bin/env bash
# Session 117, run 575 (warm after run 574 where it can be): the TMA per-tap gather over phases of unequal grids
# (TCONV_TMA_UNEQUAL_PHASES=1, off by default until this run): its test, then fam10's TF32 forward (k3 s2 p1 d2, 65
# outputs per dimension: odd ones 32 with every tap, even ones 33 with none) channels_last under 1 and 0, and
# contiguous under 1 (the copy form's K bound still refuses it: level expected). Run 572 (H100): channels_last fam10
# forward 1.42 ms on the cp.async gather, eager 1.35. Predicted under 1: ~0.5-0.6 ms (1.12 GB written, 7/8 of it zeros
# by blocks with no K loop; the tapped phase's 27 taps x 32 channels on 64-column tiles).
source scripts/device_prelude.sh
end=${END_S:-400}
switch=TCONV_TMA_UNEQUAL_PHASES
gpu_tests 150 unequal tests/test_gather_tma_gpu.py unequal_phases
for value in 1 0; do
  left $(( end - 60 )) && LAYOUT=channels_last quick_time "unequal_$value" fam10_convt3d_k3_s2_p1_d2_16x32x32 tf32 \
    auto $switch=$value | tee -a "$LOG/quick.log"
done
left $(( end - 60 )) && quick_time "unequal_contiguous_1" fam10_convt3d_k3_s2_p1_d2_16x32x32 tf32 auto $switch=1 \
  | tee -a "$LOG/quick.log"
breakdowns_ab $(( end - 90 )) $switch "1" "forward" tf32 channels_last fam10_convt3d_k3_s2_p1_d2_16x32x32
device_finish
