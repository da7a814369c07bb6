#!/usr/bin/env bash
# Session 57, run 359 (one H200): the 256-column plain gather tile for fp16/bf16 data (TCONV_GATHER_WIDEST16=1, off
# by default, written in session 57 without a GPU; 248-254 registers, no spills): its bitwise tests against the
# 128-column tile (bf16 with and without the TMA forms, fp16 without), its contract under the switch, memcheck; a
# same-build bf16 A/B of the switch on the shapes with >= 256 GEMM columns, two rounds; then TF32 kernel breakdowns
# of U-Net 3D, VAE and L1-68 at the new fp32 default (the next session's leads). Pass TCONV_COMMIT=<sha>.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
LOG="$OUT/logs"; mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_widest_gpu.py -k "not 1-float16" 2>&1 \
  | tee "$LOG/pytest_widest.log" | tail -2
TCONV_GATHER_WIDEST16=1 timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_widest_gpu.py \
  -k widest16_gather_meets 2>&1 | tee "$LOG/pytest_widest16_contract.log" | tail -2
TCONV_GATHER_WIDEST16=1 TCONV_GATHER_TMA=0 timeout 90 compute-sanitizer --tool memcheck --print-limit 20 \
  --show-backtrace no python3 scripts/gather_widest_sanitize.py bfloat16 float16 > "$LOG/memcheck_widest16.log" 2>&1
echo "memcheck widest16 rc $?: $(tail -1 "$LOG/memcheck_widest16.log")"
echo "A/B at $(( $(date +%s) - start )) s"
OUT="$LOG" SWITCH=TCONV_GATHER_WIDEST16 VALUES="1 0" ROUNDS=2 PRECISIONS=bf16 timeout 200 \
  bash scripts/device_switch_ab.sh real_dcgan_up real_unet3d_up real_vae_up real_hifigan_up 2>&1 | cut -c1-170 \
  | tee "$LOG/timing.log"
(cd scripts
 for stem in real_unet3d_up real_vae_up l1_68_convt3d_square_input_asym_kernel; do
   [ $(( $(date +%s) - start )) -lt 540 ] || break
   timeout 40 python3 kernel_breakdown.py $stem --precision tf32 --iters 1 --json "$LOG/kernels_$stem.json" \
     > "$LOG/kernels_$stem.log" 2>&1
   grep -A6 "^== " "$LOG/kernels_$stem.log" | cut -c1-150
 done)
rm -f "$LOG/build.log"
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
