#!/usr/bin/env bash
# Session 71, run 416 (one H200). Turn buffers by rule (grad_weight_turn_buffer_rule: several buffers only where the
# capped plain splits leave SMs without a block; TCONV_GRAD_WEIGHT_TURN_BUFFERS 0 = one buffer, 2 = session 70's form
# wherever the cap binds) and 16-bit shifted-x packing 2 row slots where the plan then orders in several buffers.
# 1. tests/test_grad_weight_ordered_gpu.py (turn-buffer test under 2, with small_3d and fam02's long-sum fp32 bound).
# 2. quick_timing rule / 0 interleaved, with each distinct plan-log line counted: fam02 bf16+TF32 (two rounds), the
#    real up-convs bf16+TF32 (run 415: VAE lost 12 % under session 70's form, U-Net 3D bf16 won).
# 3. Verified bench: fam02 bf16 (0.85x fwd+bwd at run 413's code), real_unet3d_up bf16.
# 4. Memcheck of sanitize_small.py's grad_weight kernels at the default.
# Pass TCONV_COMMIT=<literal sha>.
source scripts/device_prelude.sh
left 400 && timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_grad_weight_ordered_gpu.py --tb=short \
  > "$LOG/pytest_ordered.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_ordered.log" | tail -12
timing() {  # label turns problems...
  local label="$1" turns="$2"; shift 2
  (cd scripts && TCONV_GRAD_WEIGHT_BALANCE=log TCONV_GRAD_WEIGHT_TURN_BUFFERS=$turns timeout 70 python3 quick_timing.py \
    "$@" --precision bf16 tf32 --runs 8 --warmup 2 --json "$LOG/t_${label}_${turns:-rule}.json" \
    > "$LOG/t_${label}_${turns:-rule}.out" 2> "$LOG/t_${label}_${turns:-rule}.err")
  sed "s/^/$label TURNS=${turns:-rule} /" "$LOG/t_${label}_${turns:-rule}.out" | grep -v Warn | tee -a "$LOG/timing.log"
  grep "grad_weight plan" "$LOG/t_${label}_${turns:-rule}.err" | sort | uniq -c > "$LOG/plans_${label}_${turns:-rule}.log"
}
for round in 1 2; do
  for turns in "" 0; do
    left 330 && timing fam02_r$round "$turns" fam02_convt3d_k3x5x7_16x32x64
  done
done
for turns in "" 0; do
  left 430 && timing real "$turns" real_hifigan_up real_vae_up real_unet3d_up real_dcgan_up
done
for f in "$LOG"/plans_*.log; do echo "== $(basename $f)"; cat "$f"; done | cut -c1-160 | tee "$LOG/plans_all.log"
bench_rows 555 fam02_convt3d_k3x5x7_16x32x64:bf16:75 real_unet3d_up:bf16:60
left 545 && timeout 40 compute-sanitizer --tool memcheck --kernel-name kns=grad_weight \
  python3 tests/sanitize_small.py > "$LOG/memcheck.log" 2>&1
[ -f "$LOG/memcheck.log" ] && tail -1 "$LOG/memcheck.log"
device_finish
