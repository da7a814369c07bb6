#!/usr/bin/env bash
# Session 62, run 384 (one H200): the code as it lands (af9a87d's kernels; the persistent unit-stride forward taken
# out again after run 383, its patch kept as session62-persistent_unit_stride.patch): the unit-stride forward and
# grad_input grids with their four new many-tile cases on the per-tile kernel, and the concurrent-backward and graph
# tests. Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
timeout 150 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "strip_unit_stride or unit_stride_tap_pairs or unit_stride_x_pairs or concurrent_backward or cuda_graph" 2>&1 \
  | tail -4 | tee "$LOG/pytest_final.log"
device_finish
