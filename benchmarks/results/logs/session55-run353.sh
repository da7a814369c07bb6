#!/usr/bin/env bash
# Session 55, run 353 (the session's last device time): run 352 showed DCGAN's forward on the budget's 6 chunks of the
# copy (0.377 ms), which the first rule kept ahead of the direct form; now "auto" takes the direct form wherever the
# budget refuses the whole batch's copy. Selection tests, a verified TF32 DCGAN row at the defaults, its kernels.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
LOG="$OUT/logs"; mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
TCONV_COMMIT="${TCONV_COMMIT:-unknown}" timeout 60 python3 -m tconv bench real_dcgan_up --precision tf32 --no-compile \
  --runs 20 --warmup 3 --time-budget 50 --out "$OUT/bench" 2>&1 | grep -v Warning | tee "$LOG/bench.log" \
  | grep -E "verified|left|FAIL|rror|x "
(cd scripts && timeout 30 python3 kernel_breakdown.py real_dcgan_up --precision tf32 --iters 1 \
   --json "$LOG/kernels_dcgan.json" > "$LOG/kernels_dcgan.log" 2>&1; grep -A6 "^== " "$LOG/kernels_dcgan.log" | cut -c1-140)
echo "bench after $(( $(date +%s) - start )) s"
timeout $(( 390 - ($(date +%s) - start) )) python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_tma_gpu.py \
  -k "keeps_the_copy_budget or direct_auto_switch or window_auto_rule or is_what_runs" \
  2>&1 | tee "$LOG/pytest_tma.log" | tail -4
rm -f "$OUT"/bench/*.png "$LOG/build.log"
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
