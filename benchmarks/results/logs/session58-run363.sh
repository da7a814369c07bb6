#!/usr/bin/env bash
# Session 58, run 363 (one H200): the 16-bit rows grad_weight kernel (tconv_igemm_grad_weight_wgmma_rows16_kernel,
# written this session without a GPU; on by default, TCONV_GRAD_WEIGHT_ROWS16=0 keeps the widened mma.sync kernels).
# DCGAN's bf16 grad_weight took 0.880 ms on the widened mma.sync kernel (run 362) against 0.41 for TF32 on the rows
# kernel. 1. Its test (contract in bf16 and fp16, both layouts, 4 shapes, and which kernel runs, under 1 and 0);
# 2. memcheck of its workload; 3. a same-build A/B (bf16, 1 vs 0, two rounds) on DCGAN, U-Net 3D, VAE and the U-Net
# block; 4. DCGAN's bf16 kernel census; 5. verified bf16 rows of DCGAN, U-Net 3D and VAE. Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_grad_weight_rows16_gpu.py 2>&1 \
  | tee "$LOG/pytest_rows16.log" | tail -3
timeout 100 compute-sanitizer --tool memcheck --print-limit 20 --show-backtrace no \
  python3 scripts/grad_weight_rows16_sanitize.py > "$LOG/memcheck_rows16.log" 2>&1
echo "memcheck rows16 rc $?: $(tail -1 "$LOG/memcheck_rows16.log")"
echo "A/B at $(( $(date +%s) - start )) s"
OUT="$LOG" SWITCH=TCONV_GRAD_WEIGHT_ROWS16 VALUES="1 0" ROUNDS=2 PRECISIONS=bf16 timeout 150 \
  bash scripts/device_switch_ab.sh real_dcgan_up real_unet3d_up real_vae_up real_unet3d_up_block 2>&1 \
  | cut -c1-170 | tee "$LOG/timing.log"
(cd scripts
 timeout 40 python3 kernel_breakdown.py real_dcgan_up --precision bf16 --iters 1 \
   --json "$LOG/kernels_dcgan_bf16.json" > "$LOG/kernels_dcgan_bf16.log" 2>&1
 grep -A6 "^== " "$LOG/kernels_dcgan_bf16.log" | cut -c1-150)
echo "bench at $(( $(date +%s) - start )) s"
timeout 120 python3 -m tconv bench real_dcgan_up real_unet3d_up real_vae_up --precision bf16 --no-compile --runs 20 \
  --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee "$LOG/bench.log" | grep -v "^chart\|^results"
rm -f "$OUT"/*.png
device_finish
