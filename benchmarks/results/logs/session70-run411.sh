#!/usr/bin/env bash
# Session 70, run 411 (one H200; prepared in session 69 as next-session-first-run.sh; the session's first GPU call):
# The lean shifted-x grad_weight kernel (TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN: 1 its producer with one row per warpgroup, 2
# and 4 with up to that many packed row slots; 0, the default, the measured kernel), one build, never run in this form
# (its bodies are runs 409-410's, which timed them across builds only):
# 1. quick_timing, LEAN 0 / 1 / 2 / 4 interleaved, two rounds: fam02 bf16 and TF32 (16 output channels: 4 slots; 2),
#    then 0 / 1 / 2 on L1-68 TF32 (its swapped way packs 32 channels in 2 slots and swaps) and 0 / 1 on fam07 bf16.
# 2. test_grad_weight_shifted_x_lean_where_switched (kernel names, blocks per split, the contract under 4, 2, 1, 0).
# 3. Memcheck of sanitize_small.py's shifted-x kernels under LEAN=4 (its packed cases), then under the default.
# Bench rows for the 48-channel stages (fam07 / fam03 bf16), the unit-stride tests and test_gather_widest_gpu.py:
# next-session-second-run.sh, the call after this one.
# Pass TCONV_COMMIT=<literal sha>. Each part starts only if its timeout ends by ~570 s, so device_finish always runs.
source scripts/device_prelude.sh
for round in 1 2; do
  for lean in 0 1 2 4; do
    left 500 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN=$lean timeout 35 python3 quick_timing.py \
      fam02_convt3d_k3x5x7_16x32x64 --precision bf16 tf32 --runs 8 --warmup 2 \
      --json "$LOG/lean_fam02_r${round}_$lean.json" 2>&1 | grep -v Warn | sed "s/^/R$round LEAN=$lean /") \
      | tee -a "$LOG/timing_lean.log"
  done
done
for lean in 0 1 2; do
  left 520 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN=$lean timeout 30 python3 quick_timing.py \
    l1_68_convt3d_square_input_asym_kernel --precision tf32 --runs 8 --warmup 2 \
    --json "$LOG/lean_l1_68_$lean.json" 2>&1 | grep -v Warn | sed "s/^/LEAN=$lean /") | tee -a "$LOG/timing_lean.log"
done
for lean in 0 1; do
  left 505 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN=$lean timeout 45 python3 quick_timing.py \
    fam07_convt3d_k3_96x96x96 --precision bf16 --runs 8 --warmup 2 \
    --json "$LOG/lean_fam07_$lean.json" 2>&1 | grep -v Warn | sed "s/^/LEAN=$lean /") | tee -a "$LOG/timing_lean.log"
done
left 500 && timeout 60 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "grad_weight_shifted_x_lean" --tb=short > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest.log" | tail -6
for lean in 4 0; do
  left 525 && TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN=$lean timeout 40 compute-sanitizer --tool memcheck \
    --kernel-name kns=shifted_x python3 tests/sanitize_small.py > "$LOG/memcheck_$lean.log" 2>&1
  [ -f "$LOG/memcheck_$lean.log" ] && tail -1 "$LOG/memcheck_$lean.log" | sed "s/^/LEAN=$lean /"
done
device_finish
