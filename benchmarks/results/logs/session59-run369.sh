#!/usr/bin/env bash
# Session 59, run 369 (one H200): verified `tconv bench` rows of what runs 367-368 changed, at the new defaults:
# fam04 in TF32 (the unit-stride strip forward and grad_input from K 384: run 368 fwd 3.18 -> 2.36 ms, fwd+bwd
# 10.0 -> 8.49) and the bf16 rows whose grad_weight is the 16-bit rows kernel, now in its swizzled form (DCGAN, VAE,
# U-Net 3D and its block). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
timeout 150 python3 -m tconv bench fam04_convt1d_k3_65536 --precision tf32 --no-compile --runs 20 --warmup 3 \
  --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee "$LOG/bench_tf32.log" | grep -v "^chart\|^results"
echo "bf16 at $(( $(date +%s) - start )) s"
timeout 200 python3 -m tconv bench real_dcgan_up real_vae_up real_unet3d_up real_unet3d_up_block --precision bf16 \
  --no-compile --runs 20 --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee "$LOG/bench_bf16.log" \
  | grep -v "^chart\|^results"
rm -f "$OUT"/*.png
device_finish
