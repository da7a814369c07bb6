#!/usr/bin/env bash
# Session 63, run 387 (one H200): the unit-stride forward with its wgmmas issued before a later stage's store, as a
# compile-time choice (run 386's runtime switch made ptxas inject warpgroup.arrive, C7519, and cost 3-9 %; the L2
# prefetch lost and is gone).
# 1. Tests: the unit-stride forward / grad_input grids, the fused block's concurrent backward.
# 2. unit_stride_fixed_cost.py (against run 382: fam04 2.376 ms at K 384, fam01 4.160 at 576, fam06 2.021 at 960) and
#    L2-61 quick timing (against run 385: TF32 1.304 / 5.052 ms, bf16 0.772 / 3.089).
# 3. Verified bench rows of the stride-1 shapes that take the unit-stride kernels (TF32; L2-61 bf16 too), one call of
#    `tconv bench` per row while the call has time left. Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 120 python3 -m pytest -q tests/test_conv_transpose_gpu.py tests/test_fused_gpu.py -k \
  "strip_unit_stride or unit_stride_tap_pairs or unit_stride_x_pairs or unit_stride_forward_where or fused_backward_runs" \
  2>&1 | tail -4 | tee "$LOG/pytest_issue_first.log"
echo "== timing at $(( $(date +%s) - start )) s"
left 300 && (cd scripts && timeout 60 python3 unit_stride_fixed_cost.py --runs 10 --json "$LOG/fixed_cost.json" 2>&1 \
  | grep -v Warn) | tee "$LOG/fixed_cost.log"
left 330 && (cd scripts && timeout 30 python3 quick_timing.py l2_61_convt3d_relu_groupnorm --precision tf32 bf16 \
  --runs 20 --warmup 3 --json "$LOG/l2_61.json" 2>&1 | grep -v Warn) | tee "$LOG/timing_l2_61.log"
echo "== bench at $(( $(date +%s) - start )) s"
for row in l2_61_convt3d_relu_groupnorm:tf32:40 fam06_convt2d_k3x5_128x256:tf32:50 fam04_convt1d_k3_65536:tf32:50 \
    fam05_convt2d_k3x7_512x512:tf32:45 fam11_convt2d_k3x7_p1x3_512x1024:tf32:50 l2_61_convt3d_relu_groupnorm:bf16:40 \
    fam01_convt2d_k3_1024x1024:tf32:70; do
  IFS=: read -r stem precision limit <<< "$row"
  left $(( 560 - limit )) && timeout "$limit" python3 -m tconv bench "$stem" --precision "$precision" --no-compile \
    --runs 20 --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee -a "$LOG/bench.log" | grep -v "^chart\|^results"
done
rm -f "$OUT"/*.png
device_finish
