#!/usr/bin/env bash
# Session 66, run 399 (one H200): run 398 again after its fix. Run 398 hit "an illegal instruction" wherever the
# shifted-x kernel read x through the flat map: its box started off 16 bytes (a TMA box's inner start must lie on 16
# bytes, as the flat grad_output map's already did). The window now starts e = 0 .. kAlign - 1 positions early, e per
# unit, passed to the rounders in shared memory.
# - Tests: the swapped grid under 1 and 0, the shifted-x grid (s3, s11-s13 now take the flat x map), its planning test.
# - A/B, two rounds, fwd / fwd+bwd under TCONV_GRAD_WEIGHT_SWAP=0 and 1: fam07, fam03, L2-61 in bf16; fam07 in TF32.
# - If the tests pass: verified bf16 rows of fam07 and fam03 at the default rule.
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 150 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k "grad_weight_swapped or grad_weight_shifted_x" \
  --tb=short > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest.log" | tail -12
echo "== timing at $(( $(date +%s) - start )) s"
for round in 1 2; do
  for swap in 0 1; do
    left 440 && (cd scripts && TCONV_GRAD_WEIGHT_SWAP=$swap timeout 55 python3 quick_timing.py \
      fam07_convt3d_k3_96x96x96 fam03_convt3d_k3_64x64x64 l2_61_convt3d_relu_groupnorm --precision bf16 \
      --runs 10 --warmup 2 --json "$LOG/swap_${swap}_r$round.json" 2>&1 | grep -v Warn \
      | sed "s/^/SWAP=$swap /") | tee -a "$LOG/timing_swap.log"
  done
done
for swap in 0 1; do
  left 480 && (cd scripts && TCONV_GRAD_WEIGHT_SWAP=$swap timeout 40 python3 quick_timing.py fam07_convt3d_k3_96x96x96 \
    --precision tf32 --runs 10 --warmup 2 2>&1 | grep -v Warn | sed "s/^/SWAP=$swap /") | tee -a "$LOG/timing_swap.log"
done
echo "== bench at $(( $(date +%s) - start )) s"
grep -q " failed" "$LOG/pytest.log" || bench_rows 585 fam07_convt3d_k3_96x96x96:bf16:60 fam03_convt3d_k3_64x64x64:bf16:45
device_finish
