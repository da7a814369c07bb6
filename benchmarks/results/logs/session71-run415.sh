#!/usr/bin/env bash
# Session 71, run 415 (prepared in session 70 for the next session's first GPU call, one H200).
# Ordered split-K in several buffers (TCONV_GRAD_WEIGHT_TURN_BUFFERS=1: as many weight-sized buffers as the 10 %
# workspace budget holds, split s adding into buffer s % buffers after split s - buffers, up to 8 splits a buffer),
# written in session 70 without a GPU after run 413 (fam02 bf16 fwd+bwd 2.236 ms at the 10 % budget, 1.938 with 40 %,
# 1.708 with 40 % and 4 packed row slots: its grad_weight is capped at 10 splits, 100 blocks on 132 SMs).
# 1. tests/test_grad_weight_ordered_gpu.py (the new test runs fam02's form and DCGAN's under the switch: the contract,
#    bitwise repeats, the memory rule, the plan log's buffers).
# 2. quick_timing fam02 bf16 + TF32, TURN_BUFFERS : LEAN = 0 : rule, 1 : rule, 1 : 4, 1 : 2, then 0 : rule and 1 : 4
#    again; L1-68 TF32 and fam07 bf16 at the default (session 70 moved 227 grad_weight kernels' register counts).
# 3. quick_timing of the up-convs whose weights are large against grad_output (HiFi-GAN, VAE, U-Net 3D, DCGAN), bf16
#    and TF32, TURN_BUFFERS 0 / 1.
# 4. Memcheck of sanitize_small.py's grad_weight kernels under TURN_BUFFERS=1 (its 3-buffer case).
# Pass TCONV_COMMIT=<literal sha>. Each part starts only if its timeout ends by ~570 s, so device_finish always runs.
source scripts/device_prelude.sh
left 420 && timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_grad_weight_ordered_gpu.py --tb=short \
  > "$LOG/pytest_ordered.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest_ordered.log" | tail -6
for round in 1 2; do
  settings="0: 1: 1:4 1:2"; [ $round = 2 ] && settings="0: 1:4"
  for setting in $settings; do
    IFS=: read -r turns lean <<< "$setting"
    left 540 && (cd scripts && TCONV_GRAD_WEIGHT_TURN_BUFFERS=$turns TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN=$lean timeout 25 \
      python3 quick_timing.py fam02_convt3d_k3x5x7_16x32x64 --precision bf16 tf32 --runs 8 --warmup 2 \
      --json "$LOG/turns_fam02_r${round}_${turns}_${lean:-rule}.json" 2>&1 | grep -v Warn \
      | sed "s/^/R$round TURNS=$turns LEAN=$lean /") | tee -a "$LOG/timing_turns.log"
  done
done
# The default's timings after session 70's register moves (ptxas table: 227 rows), against runs 411-413 (fwd+bwd ms:
# L1-68 TF32 19.63 quick / 20.309 bench, fam07 bf16 8.872)
left 500 && (cd scripts && timeout 50 python3 quick_timing.py l1_68_convt3d_square_input_asym_kernel \
  --precision tf32 --runs 8 --warmup 2 --json "$LOG/default_l1_68.json" 2>&1 | grep -v Warn) | tee -a "$LOG/timing_turns.log"
left 520 && (cd scripts && timeout 40 python3 quick_timing.py fam07_convt3d_k3_96x96x96 --precision bf16 --runs 8 \
  --warmup 2 --json "$LOG/default_fam07.json" 2>&1 | grep -v Warn) | tee -a "$LOG/timing_turns.log"
for turns in 0 1; do
  left 500 && (cd scripts && TCONV_GRAD_WEIGHT_TURN_BUFFERS=$turns timeout 60 python3 quick_timing.py \
    real_hifigan_up real_vae_up real_unet3d_up real_dcgan_up --precision bf16 tf32 --runs 8 --warmup 2 \
    --json "$LOG/turns_real_$turns.json" 2>&1 | grep -v Warn | sed "s/^/TURNS=$turns /") | tee -a "$LOG/timing_turns.log"
done
left 530 && TCONV_GRAD_WEIGHT_TURN_BUFFERS=1 timeout 40 compute-sanitizer --tool memcheck --kernel-name kns=grad_weight \
  python3 tests/sanitize_small.py > "$LOG/memcheck_turns.log" 2>&1
[ -f "$LOG/memcheck_turns.log" ] && tail -1 "$LOG/memcheck_turns.log"
device_finish
