#!/usr/bin/env bash
# Session 69, run 409 (one H200): packed grad_output row slots in the shifted-x grad_weight kernel, written without a
# GPU (shifted_x_slots; TCONV_GRAD_WEIGHT_SHIFTED_X_SLOTS=1 keeps one row per consumer warpgroup, as before). Run 408's
# census had fam02's bf16 grad_weight at 1.371 ms against cuDNN's 0.464: 16 output channels on 64 M rows, 5 row tiles.
# 1. GPU tests: the shifted-x grid, its planning tests, the new test_grad_weight_shifted_x_slots_where_planned (grids
#    and the contract under both values) and the swapped grid (the swap rule's counts change with the slots).
# 2. Memcheck of sanitize_small.py's shifted-x kernels (two new packed cases: 4 slots of 16 channels, 2 of 32).
# 3. quick_timing, SLOTS 0 (the rule) / 1, two interleaved rounds: fam02 bf16 and TF32 (plain, 4 slots; TF32 no longer
#    swaps: its counts go 13.3 M swapped -> 7.9 M plain), L1-68 TF32 (its swapped way, 32 channels in 2 slots, now
#    counts 0.70 of the plain way and swaps).
# 4. kernel_breakdown of fam02 bf16 fwd+bwd.
# Pass TCONV_COMMIT=<literal sha>. Each part starts only if its timeout ends by ~570 s, so device_finish always runs.
source scripts/device_prelude.sh
timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "grad_weight_swapped or grad_weight_shifted_x" --tb=short > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest.log" | tail -12
left 420 && timeout 80 compute-sanitizer --tool memcheck --kernel-name kns=shifted_x python3 tests/sanitize_small.py \
  > "$LOG/memcheck.log" 2>&1; tail -1 "$LOG/memcheck.log"
echo "== timing at $(( $(date +%s) - start )) s"
for round in 1 2; do
  for slots in 0 1; do
    left 480 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_SLOTS=$slots timeout 35 python3 quick_timing.py \
      fam02_convt3d_k3x5x7_16x32x64 --precision bf16 tf32 --runs 8 --warmup 2 \
      --json "$LOG/slots_fam02_r${round}_$slots.json" 2>&1 | grep -v Warn | sed "s/^/R$round SLOTS=$slots /") \
      | tee -a "$LOG/timing_slots.log"
    left 500 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_SLOTS=$slots timeout 30 python3 quick_timing.py \
      l1_68_convt3d_square_input_asym_kernel --precision tf32 --runs 8 --warmup 2 \
      --json "$LOG/slots_l1_68_r${round}_$slots.json" 2>&1 | grep -v Warn | sed "s/^/R$round SLOTS=$slots /") \
      | tee -a "$LOG/timing_slots.log"
  done
done
left 545 && (cd scripts && timeout 25 python3 kernel_breakdown.py fam02_convt3d_k3x5x7_16x32x64 --precision bf16 \
  --iters 3 --json "$LOG/census_fam02_bf16.json" > "$LOG/census.log" 2>&1); grep -v Warn "$LOG/census.log" | head -8
device_finish
