#!/usr/bin/env bash
# Session 57, run 360 (one H200, the session's last ~9 minutes of device time): the 256-column plain gather tile now
# the default for fp16/bf16 too (run 359 measured it under TCONV_GATHER_WIDEST16=1, merged into TCONV_GATHER_WIDEST):
# its tests at the defaults (bitwise against TCONV_GATHER_WIDEST=0, contract in all three dtypes), then verified bf16
# rows of the three shapes it moved. Pass TCONV_COMMIT=<sha>.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
LOG="$OUT/logs"; mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 130 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_widest_gpu.py -k "not 1-float16" 2>&1 \
  | tee "$LOG/pytest_widest.log" | tail -2
echo "bench at $(( $(date +%s) - start )) s"
timeout 120 python3 -m tconv bench real_dcgan_up real_unet3d_up real_vae_up --precision bf16 --no-compile --runs 20 \
  --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee "$LOG/bench.log" | grep -v "^chart\|^results"
rm -f "$LOG/build.log" "$OUT"/*.png
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
