#!/usr/bin/env bash
# Session 65, run 396 (one H200; the session's last device time): two changes in one build.
# - unit_stride_mma's dynamic tiles, now the default (run 395: L1-71 TF32 fwd 0.659 -> 0.640 ms, fwd+bwd 2.462 ->
#   2.415; fam08 2.963 -> 2.923): the tests at the default and the verified bench rows it changes.
# - The unit-stride forward's set-up divisions by fast divisors (TCONV_UNIT_STRIDE_FAST_DIVISIONS, default 1; =0 the
#   hardware's), untimed: the unit-stride tests both ways, and a quick-timing A/B on its 256-row-tile rows.
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 90 python3 -m pytest -q tests/test_conv_transpose_gpu.py tests/test_fused_gpu.py -k \
  "unit_stride_mma or strip_unit_stride or unit_stride_half_tile or unit_stride_x_pairs or unit_stride_tap_pairs \
or group_stats or fused_backward_runs" 2>&1 | tail -3 | tee "$LOG/pytest.log"
left 330 && TCONV_UNIT_STRIDE_FAST_DIVISIONS=0 timeout 40 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "strip_unit_stride or unit_stride_half_tile" 2>&1 | tail -3 | tee "$LOG/pytest_hardware_divisions.log"
echo "== timing at $(( $(date +%s) - start )) s"
for round in 1 2; do
  for fast in 1 0; do
    left 400 && (cd scripts && TCONV_UNIT_STRIDE_FAST_DIVISIONS=$fast timeout 45 python3 quick_timing.py \
      fam04_convt1d_k3_65536 fam06_convt2d_k3x5_128x256 l2_61_convt3d_relu_groupnorm --precision tf32 --runs 10 \
      --warmup 2 --json "$LOG/fast_div_${fast}_r$round.json" 2>&1 | grep -v Warn \
      | sed "s/^/FAST=$fast /") | tee -a "$LOG/timing_fast_div.log"
  done
done
echo "== bench at $(( $(date +%s) - start )) s"
bench_rows 560 l1_71_convt2d_asym_input_square_kernel:tf32:40 fam08_convt1d_k5_d3_131072:tf32:40 \
  fam11_convt2d_k3x7_p1x3_512x1024:tf32:45 l1_71_convt2d_asym_input_square_kernel:bf16:40
device_finish
