#!/usr/bin/env bash
# Session 107, run 549 (one H100 or H200, cold; the session's last ~280 s of device time after two failed starts, so
# the tests only, ending by 250 s). Run 548 (H100, 55597a8):
# the overlap test passed, racecheck 0 hazards; TF32 grad_weight kernel, plain ring -> overlap: L2-61 1.355 -> 1.345
# ms, fam03 2.491 -> 2.443; verified rows under it: L2-61 1.267 / 4.282 ms (2.98x / 2.09x eager), fam03 1.834 / 5.933
# (4.94x / 3.20x). This commit makes the overlap the ring's default.
# 1. The ring's tests under the new default: the ring against the measured kernel (the plain ring pinned), the
#    overlap against the plain ring (1, 0 and unset), where_planned. Predicted: pass.
source scripts/device_prelude.sh
left 160 && gpu_tests 90 ring_default tests/test_conv_transpose_gpu.py \
  "shifted_x_ring_agrees_bitwise or shifted_x_ring_overlap_agrees_bitwise or shifted_x_where_planned"
device_finish
