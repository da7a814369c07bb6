#!/usr/bin/env bash
# Session 69, run 410 (one H200; the session's last device time): run 409's packed row slots lost (fam02 bf16
# grad_weight 1.37 -> 5.99 ms; 3.20 ms fwd+bwd even with TCONV_GRAD_WEIGHT_SHIFTED_X_SLOTS=1 against run 408's 2.23):
# the producer's lane 0 evaluated every slot, with a division, twice per unit. Now it walks only the slots it loads
# (sweep starts: all; else the chain heads), their (kd, kh) stepped without division.
# 1. quick_timing SLOTS 0 (the rule) / 1: fam02 bf16 and TF32 (two rounds), L1-68 TF32 (its swapped way packs 2
#    slots and now swaps), fam07 bf16 (default). Baselines (older code, H200): fam02 bf16 fwd+bwd 2.218-2.246, TF32
#    2.470-2.492; L1-68 TF32 20.92-21.03; fam07 bf16 8.87 (run 408 with 48-channel stages).
# 2. GPU tests: the shifted-x grid, its planning and slots tests, the swapped grid (fam07's form now at W 96).
# 3. Memcheck of sanitize_small.py's shifted-x kernels.
# Pass TCONV_COMMIT=<literal sha>. Each part starts only if its timeout ends by ~575 s, so device_finish always runs.
source scripts/device_prelude.sh
echo "== timing at $(( $(date +%s) - start )) s"
for slots in 0 1; do
  left 540 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_SLOTS=$slots timeout 35 python3 quick_timing.py \
    fam02_convt3d_k3x5x7_16x32x64 --precision bf16 tf32 --runs 8 --warmup 2 \
    --json "$LOG/slots_fam02_r1_$slots.json" 2>&1 | grep -v Warn | sed "s/^/R1 SLOTS=$slots /") \
    | tee -a "$LOG/timing_slots.log"
  left 545 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_SLOTS=$slots timeout 30 python3 quick_timing.py \
    l1_68_convt3d_square_input_asym_kernel --precision tf32 --runs 8 --warmup 2 \
    --json "$LOG/slots_l1_68_$slots.json" 2>&1 | grep -v Warn | sed "s/^/SLOTS=$slots /") \
    | tee -a "$LOG/timing_slots.log"
done
left 530 && (cd scripts && timeout 45 python3 quick_timing.py fam07_convt3d_k3_96x96x96 --precision bf16 --runs 8 \
  --warmup 2 --json "$LOG/fam07_bf16.json" 2>&1 | grep -v Warn) | tee -a "$LOG/timing_slots.log"
left 430 && timeout 140 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "grad_weight_swapped or grad_weight_shifted_x" --tb=short > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest.log" | tail -12
left 520 && timeout 50 compute-sanitizer --tool memcheck --kernel-name kns=shifted_x python3 tests/sanitize_small.py \
  > "$LOG/memcheck.log" 2>&1; tail -1 "$LOG/memcheck.log"
for slots in 0 1; do
  left 555 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_SLOTS=$slots timeout 20 python3 quick_timing.py \
    fam02_convt3d_k3x5x7_16x32x64 --precision bf16 --runs 8 --warmup 2 \
    --json "$LOG/slots_fam02_r2_$slots.json" 2>&1 | grep -v Warn | sed "s/^/R2 SLOTS=$slots /") \
    | tee -a "$LOG/timing_slots.log"
done
device_finish
