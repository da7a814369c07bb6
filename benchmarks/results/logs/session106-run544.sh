#!/usr/bin/env bash
# Session 106, run 544 (written after run 543, one H100 or H200, cold). Run 543 measured the row ring
# (TCONV_GRAD_WEIGHT_SHIFTED_X_RING) at L2-61's grad_weight 2.188 -> 1.414 ms and fam03's 3.481 -> 2.592 (H100), its
# test and memcheck clean; this commit makes it the default where it applies. The persistent staged store lost
# (L2-61 fwd 1.277 -> 1.403 ms), so its sanitizers and ncu wait in next-session-second-run.sh.
# 1. racecheck of scripts/shifted_x_ring_sanitize.py. Predicted: 0 hazards.
# 2. The TF32 shifted-x tests under the new default (the grid in every layout, where-planned, narrow with the ring
#    pinned off, slide (the ring under SLIDE 1 / 0 / rule), lean, ring, channel tiles). Predicted: all pass.
# 3. The ring's A/B on fam06 and fam05 (2D, the measured kernel at unit 32 in TF32): kernel breakdowns, RING 0 / 1.
#    Predicted: a gain smaller than the 3D rows' (kH 3 or 5 rows, fewer W positions a unit), or none.
# 4. Verified TF32 rows of L2-61 and fam03 in what is left. Predicted: L2-61 fwd+bwd ~0.75 ms below run 543's 5.020.
source scripts/device_prelude.sh
left 200 && TCONV_GRAD_WEIGHT_SHIFTED_X_RING=1 timeout 60 compute-sanitizer --tool racecheck \
  --kernel-name kns=shifted_x_ring python3 scripts/shifted_x_ring_sanitize.py > "$LOG/racecheck_ring.log" 2>&1
tail -4 "$LOG/racecheck_ring.log"
left 260 && gpu_tests 190 shifted_x_tf32 tests/test_conv_transpose_gpu.py "shifted_x and not (bf16 or fp16 or fp32)"
for problem in fam06_convt2d_k3x5_128x256 fam05_convt2d_k3x7_512x512; do
  breakdowns_ab 540 TCONV_GRAD_WEIGHT_SHIFTED_X_RING "0 1" "grad_weight|total" tf32 contiguous $problem
done
bench_budget 590 tf32 contiguous l2_61_convt3d_relu_groupnorm fam03_convt3d_k3_64x64x64
device_finish
