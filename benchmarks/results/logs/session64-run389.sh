#!/usr/bin/env bash
# Prepared in session 63; run as session 64 run 389 (one H200).
# 1. fam08's fwd+bwd regression (run 358: 2.940 ms, run 388: 3.492; forward level): the concurrent backward on / off
#    in one process (scripts/concurrent_ab.py) on fam08 and the other rows whose passes are persistent or SM-sized
#    (L1-71's unit_stride_mma; L1-68's split-K grad_weight), with a third setting: concurrent with grad_input
#    launched first (_ops._CONCURRENT_GRAD_INPUT_FIRST, the candidate fix), and per-kernel timelines (--kernels).
# 2. The half tile (TCONV_UNIT_STRIDE_HALF_TILE=1, written without a GPU in session 63: 128 rows, one warpgroup, two
#    blocks per SM, so one block's set-up, fill and store overlap the other's K loop): the unit-stride grids and its
#    kernel-choice test with the switch on; then the fixed-cost sweep and L2-61 / fam01 / fam05 quick timing, on and
#    off in alternating processes. Predicted: fam04's forward 2.30 -> ~1.8 ms if the overlap hides most of its 0.95 ms
#    per-tile part and the 128-row tiles' extra weight reads (2x) and shared traffic (+20 %) cost little.
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
(cd scripts && timeout 100 python3 concurrent_ab.py fam08_convt1d_k5_d3_131072 l1_71_convt2d_asym_input_square_kernel \
  l1_68_convt3d_square_input_asym_kernel --rounds 2 --runs 10 --kernels --orders 2>&1 | grep -v Warn) \
  | tee "$LOG/concurrent_ab.log"
echo "== half tile tests at $(( $(date +%s) - start )) s"
left 330 && TCONV_UNIT_STRIDE_HALF_TILE=1 timeout 120 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "strip_unit_stride or unit_stride_half_tile or unit_stride_tap_pairs or unit_stride_x_pairs" 2>&1 | tail -6 \
  | tee "$LOG/pytest_half_tile.log"
echo "== half tile timing at $(( $(date +%s) - start )) s"
for half in 1 0; do
  left 450 && (cd scripts && TCONV_UNIT_STRIDE_HALF_TILE=$half timeout 60 python3 unit_stride_fixed_cost.py --runs 10 \
    --json "$LOG/fixed_cost_half_$half.json" 2>&1 | grep -v Warn | sed "s/^/HALF=$half /") \
    | tee -a "$LOG/fixed_cost.log"
done
for half in 1 0; do
  left 530 && (cd scripts && TCONV_UNIT_STRIDE_HALF_TILE=$half timeout 35 python3 quick_timing.py \
    l2_61_convt3d_relu_groupnorm fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512 --precision tf32 --runs 10 \
    --warmup 2 --json "$LOG/half_$half.json" 2>&1 | grep -v Warn | sed "s/^/HALF=$half /") \
    | tee -a "$LOG/timing_half.log"
done
device_finish
