#!/usr/bin/env bash
# Session 80, run 452 (one H200); TCONV_COMMIT is this commit's full sha, passed by the caller.
# Run 451: channels-last bf16 runs 3-7x slower than contiguous (DCGAN 0.340 / 2.785 ms = 0.35x / 0.13x eager, VAE
# 0.20x / 0.14x). Since then: the TMA gather's epilogue writes channels-last outputs with each warp's lanes along the
# channels ([M][N] staging; the [N][M] one's stores along W land C elements apart), and "auto" reads 16-bit
# channels-last sources in place without the copy's K bound (VAE, U-Net 3D: K 256). Predicted: DCGAN forward
# 0.340 -> ~0.16-0.18 ms; VAE and U-Net 3D forwards on the TMA gather, down from 2.87 / 1.45 to near their contiguous
# 0.49 / 0.25 or below. Where the backward goes is unknown:
# 1. tests: the 16-bit in-place contract, "auto"'s rule (now VAE-like too), TF32 into channels-last outputs;
# 2. channels-last bf16 quick timings (DCGAN, VAE, U-Net 3D) and their kernel breakdowns (serial backward);
# 3. verified channels-last bf16 rows of the three while time is left.
source scripts/device_prelude.sh
left 300 && gpu_tests 170 tma_cl tests/test_gather_tma_gpu.py "16bit or channels_last_output"
{
  for problem in real_dcgan_up real_vae_up real_unet3d_up; do
    left 440 && LAYOUT=channels_last quick_time cl "$problem" bf16 auto
  done
} | tee "$LOG/timing.log"
for problem in real_dcgan_up real_vae_up real_unet3d_up; do
  left 470 && timeout 30 python3 scripts/kernel_breakdown.py "$problem" --precision bf16 --layout channels_last \
    --iters 3 2>&1 | grep -v Warn
done > "$LOG/breakdown.log" 2>&1
head -c 5000 "$LOG/breakdown.log"
budget=$(( 500 - ($(date +%s) - start) ))
[ "$budget" -gt 30 ] && timeout $(( budget + 50 )) python3 -m tconv bench real_dcgan_up real_vae_up real_unet3d_up \
  --precision bf16 --layout channels_last --no-compile --runs 20 --warmup 3 --time-budget "$budget" --out "$OUT" 2>&1 \
  | grep -vE "^\s*$" | tee "$LOG/bench_channels_last.log" | grep -v "^chart\|^results\|^resume\|^ "
find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
rm -f "$OUT"/*.png
device_finish
