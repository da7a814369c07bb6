#!/usr/bin/env bash
# Session 67, run 402 (one H200): the swap rule after run 401.
# - grad_weight_swaps: one bound (0.93 of the plain way's shifted-x work) for 2D and 3D kernels; fp32 data whose plain
#   way keeps the wgmma kernel run swapped on the shifted-x kernel where it counts below 0.65 of the plain way's
#   shifted-x plan (L2-61 and fam03 TF32 swap now; fam06 TF32 is the 2D row that does).
# - The GPU tests of grad_weight (the swapped grid's bitwise checks now on random grad_output), then quick_timing of
#   the rule against TCONV_GRAD_WEIGHT_SWAP=0, then verified TF32 rows of L2-61, fam03 and fam06 while time is left.
# Pass TCONV_COMMIT=<literal sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 200 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k "grad_weight or swap" --tb=short \
  > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest.log" | tail -12
echo "== timing at $(( $(date +%s) - start )) s"
for swap in rule 0; do
  left 470 && (cd scripts && env $([ $swap = 0 ] && echo TCONV_GRAD_WEIGHT_SWAP=0) timeout 50 python3 quick_timing.py \
    l2_61_convt3d_relu_groupnorm fam03_convt3d_k3_64x64x64 fam06_convt2d_k3x5_128x256 fam02_convt3d_k3x5x7_16x32x64 \
    fam05_convt2d_k3x7_512x512 --precision tf32 --runs 8 --warmup 2 --json "$LOG/swap_$swap.json" 2>&1 \
    | grep -v Warn | sed "s/^/SWAP=$swap /") | tee -a "$LOG/timing_swap.log"
done
echo "== bench at $(( $(date +%s) - start )) s"
bench_rows 575 l2_61_convt3d_relu_groupnorm:tf32:45 fam03_convt3d_k3_64x64x64:tf32:60 fam06_convt2d_k3x5_128x256:tf32:60
device_finish
