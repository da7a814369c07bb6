#!/usr/bin/env bash
# Session 68, run 406 (one H200). Run 405 timed the tap-pairs half tile (TCONV_UNIT_STRIDE_HALF_TILE_TAP_PAIRS=1)
# faster on fam07 and fam02 (3D; forwards -5 to -6 %) and slightly slower on fam11 (2D, K 672: +0.7-0.9 %). This
# run times the other tap-pairs users, switch 0 / 1 in two interleaved rounds: L1-68 (grad_input: 64 -> 32 channels,
# T 5, K 4800), L1-71 (bf16 only: K 288; TF32 stays off the unit-stride form), fam11 again; then the GPU test files
# that runs 403-405 did not finish at the new swap rule (gather_widest alone, it is the slow one).
# Pass TCONV_COMMIT=<literal sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
for round in 1 2; do
  for on in 0 1; do
    left 400 && (cd scripts && TCONV_UNIT_STRIDE_HALF_TILE_TAP_PAIRS=$on timeout 70 python3 quick_timing.py \
      l1_68_convt3d_square_input_asym_kernel fam11_convt2d_k3x7_p1x3_512x1024 --precision bf16 tf32 \
      --runs 8 --warmup 2 --json "$LOG/half_pairs_r${round}_$on.json" 2>&1 | grep -v Warn \
      | sed "s/^/R$round PAIRS_HALF=$on /") | tee -a "$LOG/timing_half_pairs.log"
    left 420 && (cd scripts && TCONV_UNIT_STRIDE_HALF_TILE_TAP_PAIRS=$on timeout 30 python3 quick_timing.py \
      l1_71_convt2d_asym_input_square_kernel --precision bf16 --runs 8 --warmup 2 \
      --json "$LOG/half_pairs_l1_71_r${round}_$on.json" 2>&1 | grep -v Warn \
      | sed "s/^/R$round PAIRS_HALF=$on /") | tee -a "$LOG/timing_half_pairs.log"
  done
done
echo "== tests at $(( $(date +%s) - start )) s"
left 420 && timeout 140 python3 -m pytest -q -p no:cacheprovider tests/test_grad_weight_ordered_gpu.py \
  tests/test_grad_weight_rows16_gpu.py tests/test_grad_weight_rows_3d_gpu.py tests/test_optimize_gpu.py \
  tests/test_pack_weight_gpu.py tests/test_sum_splits_gpu.py --tb=short --durations=5 \
  > "$LOG/pytest_rest.log" 2>&1; grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest_rest.log" | tail -8
left 480 && timeout $(( 570 - $(date +%s) + start )) python3 -m pytest -q -p no:cacheprovider \
  tests/test_gather_widest_gpu.py --tb=short > "$LOG/pytest_widest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest_widest.log" | tail -8; tail -c 300 "$LOG/pytest_widest.log"
device_finish
