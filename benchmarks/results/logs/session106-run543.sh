#!/usr/bin/env bash
# Session 106, run 543 (prepared in session 105 as next-session-first-run.sh; session 105's twelve calls never started a
# machine). One H200 or H100, cold.
# 1. The shifted-x grad_weight's row ring (TCONV_GRAD_WEIGHT_SHIFTED_X_RING=1, session 105, compiled, never run):
#    test_grad_weight_shifted_x_ring_agrees_bitwise (8 cases; bitwise against the measured kernel, the same grids, the
#    contract) and memcheck of scripts/shifted_x_ring_sanitize.py. Predicted: pass, 0 errors.
# 2. Its A/B, TF32 kernel breakdowns, RING 0 / 1, on L2-61 and fam03 (both run the measured kernel swapped at unit 32,
#    4 stages, not sliding). Counted for L2-61: a unit's boxes 32.6 KB -> ~14.3 KB steady (one row instead of 3),
#    6 stages instead of 4; predicted grad_weight 2.03 -> 1.4-1.7 ms if L2 delivery bounds it (3.6 TB/s now), little
#    change if the rounders or the per-unit steps do.
# 3. Session 103's persistent staged store (TCONV_UNIT_STRIDE_PERSISTENT, default 0; compiled, never run): its test
#    (10 cases, bitwise against the one-tile kernel), then TF32 quick timing 0 / 1 on L2-61 and fam06. Predicted:
#    L2-61's forward 1.17 -> ~1.09-1.13 ms, fam06's 1.71 -> ~1.60 (the set-up, first loads and launch of a block's
#    tiles overlapping the MMAs). Its sanitizers, the 64-channel test and the ncu of its L2 writes:
#    next-session-second-run.sh.
source scripts/device_prelude.sh
left 200 && gpu_tests 150 ring tests/test_conv_transpose_gpu.py "shifted_x_ring_agrees_bitwise"
left 250 && TCONV_GRAD_WEIGHT_SHIFTED_X_RING=1 timeout 60 compute-sanitizer --tool memcheck \
  --kernel-name kns=shifted_x_ring python3 scripts/shifted_x_ring_sanitize.py > "$LOG/memcheck_ring.log" 2>&1
tail -4 "$LOG/memcheck_ring.log"
for problem in l2_61_convt3d_relu_groupnorm fam03_convt3d_k3_64x64x64; do
  breakdowns_ab 380 TCONV_GRAD_WEIGHT_SHIFTED_X_RING "0 1" "grad_weight|total" tf32 contiguous $problem
done
left 390 && gpu_tests 150 persistent tests/test_conv_transpose_gpu.py "unit_stride_persistent_switch"
l2=l2_61_convt3d_relu_groupnorm
for v in 0 1; do left 500 && quick_time "persistent_$v" $l2 tf32 auto TCONV_UNIT_STRIDE_PERSISTENT=$v; done
for v in 0 1; do
  left 545 && quick_time "persistent_$v" fam06_convt2d_k3x5_128x256 tf32 auto TCONV_UNIT_STRIDE_PERSISTENT=$v
done
device_finish
