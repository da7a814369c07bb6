#!/usr/bin/env bash
# Session 81, run 455 (one H200); TCONV_COMMIT is this commit's full sha, passed by the caller.
# Run 454 (under the switches): the TMA grad_weight passed its contract and took channels-last bf16 fwd+bwd DCGAN
# 1.313 -> 0.894 ms, VAE 2.783 -> 1.378, U-Net 3D 1.385 -> 0.678; the in-place partial boxes L2-61's forward 3.247 ->
# 1.278. Both are "auto" now. This call:
# 1. L1-71 channels-last bf16 timing (the partial boxes' 64-column tiles; run 454 ran out of time before it);
# 2. ncu of VAE's channels-last forward (the 16-bit TMA gather, K 256: 0.822 ms against eager's 0.578): what bounds
#    its short blocks (one per SM, each filling its ring and storing alone);
# 3. verified channels-last bf16 rows under the new defaults, DCGAN, VAE, U-Net 3D, L2-61, L1-71, while time lasts.
source scripts/device_prelude.sh
left 330 && LAYOUT=channels_last quick_time default l1_71_convt2d_asym_input_square_kernel bf16 auto \
  | tee "$LOG/timing.log"
left 340 && OUT="$LOG" KERNEL=gather_tma16 CASES="vae_cl_bf16:real_vae_up:bf16:auto:channels_last" \
  timeout 100 bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu.log"
budget=$(( 535 - ($(date +%s) - start) ))
[ "$budget" -gt 20 ] && timeout $(( budget + 40 )) python3 -m tconv bench real_dcgan_up real_vae_up real_unet3d_up \
  l2_61_convt3d_relu_groupnorm l1_71_convt2d_asym_input_square_kernel --precision bf16 --layout channels_last \
  --no-compile --runs 20 --warmup 3 --time-budget "$budget" --out "$OUT" 2>&1 \
  | grep -vE "^\s*$" | tee "$LOG/bench_channels_last.log" | grep -v "^chart\|^results\|^resume"
find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
rm -f "$OUT"/*.png
device_finish
