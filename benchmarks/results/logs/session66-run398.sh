#!/usr/bin/env bash
# Session 66, run 398 (one H200): the swapped grad_weight (TCONV_GRAD_WEIGHT_SWAP: unset the rule, 1 wherever it can,
# 0 never) and the shifted-x kernel's flat x map.
# - Tests: the swapped grid under 1 and 0, the shifted-x grid (its cases s3, s11-s13 now take the flat x map) and its
#   planning test.
# - A/B, two rounds, fwd / fwd+bwd: fam07, fam03, L2-61 in bf16 and TF32 under 0 and 1 (TF32 keeps other kernels
#   unswapped; forced, it shows what the swapped problem picks there).
# - Census of bf16 fam07 / fam03 under 1 (the grad_weight kernel's time).
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 200 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "grad_weight_swapped or grad_weight_shifted_x" -x 2>&1 | tail -4 | tee "$LOG/pytest.log"
echo "== timing at $(( $(date +%s) - start )) s"
for round in 1 2; do
  for swap in 0 1; do
    left 470 && (cd scripts && TCONV_GRAD_WEIGHT_SWAP=$swap timeout 60 python3 quick_timing.py \
      fam07_convt3d_k3_96x96x96 fam03_convt3d_k3_64x64x64 l2_61_convt3d_relu_groupnorm --precision bf16 tf32 \
      --runs 10 --warmup 2 --json "$LOG/swap_${swap}_r$round.json" 2>&1 | grep -v Warn \
      | sed "s/^/SWAP=$swap /") | tee -a "$LOG/timing_swap.log"
  done
done
left 530 && (cd scripts && TCONV_GRAD_WEIGHT_SWAP=1 timeout 50 python3 kernel_breakdown.py fam07_convt3d_k3_96x96x96 \
  fam03_convt3d_k3_64x64x64 --precision bf16 --iters 3 --model new --json "$LOG/census_swap1.json" 2>&1 \
  | grep -v Warn) | tee -a "$LOG/census.log"
device_finish
