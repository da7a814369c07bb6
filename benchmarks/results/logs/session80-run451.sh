#!/usr/bin/env bash
# Session 80, run 451 (one H200); TCONV_COMMIT is this commit's full sha, passed by the caller.
# Run 450: the 16-bit TMA gather meets the contract (3 passed) and runs DCGAN bf16's forward in 0.164 ms on the whole
# batch's copy ("igemm_tma") against 0.245 on the cp.async gathers, but the 10 % copy budget makes "auto" chunk it
# (0.256). A 16-bit source already channels-last needs no copy: its boxes are taken from the tensor itself (session
# 80: TmaGatherPlan::in_place, "auto" by default). Predicted: DCGAN bf16 channels-last forward ~0.15 ms, fwd+bwd
# ~0.63 (grad_input in place too, grad_output channels-last).
# 1. tests: the 16-bit contract in place (forward and grad_input, every 2-D/3-D case, no copy kernel), "auto"'s rule
#    (channels-last in place, contiguous and misaligned sources not), the copy form's contract;
# 2. channels-last bf16 quick timings, in place (default) against TCONV_GATHER_TMA_16BIT=0: DCGAN, VAE, U-Net 3D;
# 3. the first channels-last bench rows (bf16): DCGAN, VAE.
source scripts/device_prelude.sh
left 300 && gpu_tests 160 tma16 tests/test_gather_tma_gpu.py "16bit"
{
  for problem in real_dcgan_up real_vae_up real_unet3d_up; do
    left 470 && LAYOUT=channels_last quick_time cl_off "$problem" bf16 auto TCONV_GATHER_TMA_16BIT=0
    left 480 && LAYOUT=channels_last quick_time cl_in_place "$problem" bf16 auto
  done
} | tee "$LOG/timing.log"
left 480 && timeout 90 python3 -m tconv bench real_dcgan_up real_vae_up --precision bf16 --layout channels_last \
  --no-compile --runs 20 --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee -a "$LOG/bench_channels_last.log" \
  | grep -v "^chart\|^results"
find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
rm -f "$OUT"/*.png
device_finish
