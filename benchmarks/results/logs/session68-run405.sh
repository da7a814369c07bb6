#!/usr/bin/env bash
# Prepared in session 67; run in session 68 as run 405 (one H200).
# 1. The half tile for the unit-stride tap-pairs form (TCONV_UNIT_STRIDE_HALF_TILE_TAP_PAIRS, off by default, compiled
#    but never run on a GPU): the unit-stride tests, among them test_unit_stride_half_tile_tap_pairs_where_switched
#    (contract, kernel names, bits against the 256-row tile); memcheck of sanitize_small.py's unit-stride kernels with
#    the switch on (its tap-pairs cases); memcheck of its shifted-x kernels (the swapped case, W 32 since c7bb27f,
#    now swapped in TF32 as well).
# 2. quick_timing under the switch 0 / 1: fam07 and fam02 in bf16 and TF32 (their forwards, and fam02's grad_input,
#    run tap-pairs tiles: 24 and 16 output channels; run 404's ncu had fam07's bf16 forward at 24 % tensor pipe with
#    one 256-row block per SM), fam11 bf16. A win makes it the default for those tiles.
# 3. The GPU test files that session 67's runs did not reach at the new swap rule.
# Pass TCONV_COMMIT=<literal sha> (not $(git rev-parse HEAD): the device's copy answers with an older HEAD).
# Each part starts only if its timeout ends by ~570 s, so device_finish always runs.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 150 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k "unit_stride" --tb=short \
  > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest.log" | tail -12
left 350 && TCONV_UNIT_STRIDE_HALF_TILE_TAP_PAIRS=1 timeout 100 compute-sanitizer --tool memcheck \
  --kernel-name kns=unit_stride_forward python3 tests/sanitize_small.py > "$LOG/memcheck.log" 2>&1
tail -2 "$LOG/memcheck.log"
left 420 && timeout 100 compute-sanitizer --tool memcheck --kernel-name kns=shifted_x python3 tests/sanitize_small.py \
  > "$LOG/memcheck_shifted_x.log" 2>&1; tail -2 "$LOG/memcheck_shifted_x.log"  # the swapped case at W 32 (c7bb27f)
echo "== timing at $(( $(date +%s) - start )) s"
for on in 0 1; do
  left 510 && (cd scripts && TCONV_UNIT_STRIDE_HALF_TILE_TAP_PAIRS=$on timeout 60 python3 quick_timing.py \
    fam07_convt3d_k3_96x96x96 fam02_convt3d_k3x5x7_16x32x64 fam11_convt2d_k3x7_p1x3_512x1024 --precision bf16 tf32 \
    --runs 8 --warmup 2 --json "$LOG/half_pairs_$on.json" 2>&1 | grep -v Warn | sed "s/^/PAIRS_HALF=$on /") \
    | tee -a "$LOG/timing_half_pairs.log"
done
left 470 && timeout 100 python3 -m pytest -q -p no:cacheprovider tests/test_grad_weight_ordered_gpu.py \
  tests/test_grad_weight_rows16_gpu.py tests/test_grad_weight_rows_3d_gpu.py tests/test_optimize_gpu.py \
  tests/test_pack_weight_gpu.py tests/test_sum_splits_gpu.py tests/test_gather_widest_gpu.py --tb=short \
  > "$LOG/pytest_rest.log" 2>&1; grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest_rest.log" | tail -8
device_finish
