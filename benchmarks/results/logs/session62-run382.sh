#!/usr/bin/env bash
# Session 62, run 382 (one H200): the concurrent backward and the by-channel strip x copies as defaults (run 381).
# 1. Tests with the defaults: the concurrent test (serial reference switched off), CUDA graph capture (serial there),
#    the strip tests, the TF32/bf16 grid tests.
# 2. A/B of the concurrent backward in bf16 on the host-bound sub-ms rows (run 370), and TF32 U-Net 3D again (run 381
#    had a wide spread there), 20 runs a process.
# 3. The unit-stride forward's fixed cost per block (scripts/unit_stride_fixed_cost.py): the design input for a
#    persistent form.
# 4. Verified bench rows (TF32: the rows run 381's A/B moved, and HiFi-GAN; bf16 DCGAN and U-Net 3D). Each later step only while the call has time left. Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 120 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "concurrent_backward or cuda_graph or test_strip_grad_input or (test_grid and auto and (tf32 or bf16))" 2>&1 \
  | tail -3 | tee "$LOG/pytest_defaults.log"
echo "== A/B at $(( $(date +%s) - start )) s"
left 330 && (cd scripts && for round in 1 2; do for value in 1 0; do
  TCONV_CONCURRENT_BACKWARD=$value timeout 40 python3 quick_timing.py real_unet3d_up real_dcgan_up real_vae_up \
    --precision bf16 --runs 20 --warmup 3 --json "$LOG/concurrent_bf16_${value}_${round}.json" 2>&1 | grep -v Warn \
    | sed "s/^/CONCURRENT=$value /"
  TCONV_CONCURRENT_BACKWARD=$value timeout 20 python3 quick_timing.py real_unet3d_up --precision tf32 --runs 20 \
    --warmup 3 2>&1 | grep -v Warn | sed "s/^/CONCURRENT=$value /"
done; done) | tee "$LOG/timing_concurrent.log"
echo "== fixed cost at $(( $(date +%s) - start )) s"
left 360 && (cd scripts && timeout 60 python3 unit_stride_fixed_cost.py --runs 10 --json "$LOG/fixed_cost.json" 2>&1 \
  | grep -v Warn) | tee "$LOG/fixed_cost.log"
echo "== bench at $(( $(date +%s) - start )) s"
left 420 && timeout 150 python3 -m tconv bench real_dcgan_up real_unet3d_up fam13_convt2d_k3_s5_p1_d2_64x128 \
  l1_72_convt3d_asym_kernel_strided_padded_grouped fam10_convt3d_k3_s2_p1_d2_16x32x32 real_hifigan_up \
  --precision tf32 --no-compile --runs 20 --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" \
  | tee "$LOG/bench_tf32.log" | grep -v "^chart\|^results"
left 520 && timeout 60 python3 -m tconv bench real_dcgan_up real_unet3d_up --precision bf16 --no-compile --runs 20 \
  --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee "$LOG/bench_bf16.log" | grep -v "^chart\|^results"
rm -f "$OUT"/*.png
device_finish
