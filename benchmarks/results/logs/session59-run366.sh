#!/usr/bin/env bash
# Prepared in session 58; run 366 (session 59).
# The 16-bit rows grad_weight kernel's swizzled form (TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE=1, off by default, written in
# session 58 after its device time: x as one 32-byte-swizzled TMA box per unit, read by a layout-type-3 descriptor,
# instead of two 8-position boxes; TMA rows per unit 320 -> 192). Run 363 measured the default form: DCGAN's bf16
# grad_weight 0.309 ms (222 TFLOP/s, the tensor pipe about half busy by the count of m64n128k16s per stage); run 365
# found the consumers' serial chain is not the limit. 1. The rows16 tests (contract and kernel choice under
# TCONV_GRAD_WEIGHT_ROWS16 1/0; swizzled bits against the default form's, fp16 and bf16, 4 shapes); 2. memcheck of the
# rows16 workload under the swizzle; 3. a same-build A/B (bf16, swizzle 1 vs 0, two rounds) on DCGAN, VAE, U-Net 3D
# and its block; 4. DCGAN's bf16 census under the swizzle. If it wins: make it the default (its map and kernel choice
# read one switch). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_grad_weight_rows16_gpu.py 2>&1 \
  | tee "$LOG/pytest_rows16.log" | tail -3
TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE=1 timeout 100 compute-sanitizer --tool memcheck --print-limit 20 \
  --show-backtrace no python3 scripts/grad_weight_rows16_sanitize.py > "$LOG/memcheck_rows16_swizzle.log" 2>&1
echo "memcheck rows16 swizzle rc $?: $(tail -1 "$LOG/memcheck_rows16_swizzle.log")"
echo "A/B at $(( $(date +%s) - start )) s"
OUT="$LOG" SWITCH=TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE VALUES="1 0" ROUNDS=2 PRECISIONS=bf16 timeout 150 \
  bash scripts/device_switch_ab.sh real_dcgan_up real_vae_up real_unet3d_up real_unet3d_up_block 2>&1 \
  | cut -c1-170 | tee "$LOG/timing.log"
(cd scripts
 TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE=1 timeout 40 python3 kernel_breakdown.py real_dcgan_up --precision bf16 --iters 1 \
   --json "$LOG/kernels_dcgan_bf16_swizzle.json" > "$LOG/kernels_dcgan_bf16_swizzle.log" 2>&1
 grep -A6 "^== " "$LOG/kernels_dcgan_bf16_swizzle.log" | cut -c1-150)
device_finish
