#!/usr/bin/env bash
# Run 344 (the session's last ~460 s of device time): the faster channels-last copy (128 positions a block) and the
# copy-budget chunks sized by waves (DCGAN's forward back on the TMA gather in 6 chunks; grad_input refused): TMA
# tests, memcheck, "auto" timings of L1-68 and DCGAN, then verified TF32 rows of both within the time left.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
LOG="$OUT/logs"; mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 110 python3 -m pytest -q -rfE --maxfail=10 -p no:cacheprovider tests/test_gather_tma_gpu.py \
  -k "not tile_widths_agree and (not test_window_auto_rule or keeps_the_copy_budget)" 2>&1 | tee "$LOG/pytest_tma.log" | tail -3
timeout 45 compute-sanitizer --tool memcheck --print-limit 20 python3 scripts/tma_gather_sanitize.py 2>&1 \
  | tail -3 | tee "$LOG/memcheck.log"
echo "tests after $(( $(date +%s) - start )) s"
(cd scripts && timeout 40 python3 quick_timing.py l1_68_convt3d_square_input_asym_kernel real_dcgan_up \
   --precision tf32 --algorithm auto --runs 10 --json "$LOG/timing.json" 2>&1 | tee "$LOG/timing.log")
built=$(( $(date +%s) - start ))
echo "timings after $built s"
TCONV_COMMIT="${TCONV_COMMIT:-unknown}" timeout $(( 400 - built )) python3 -m tconv bench real_dcgan_up \
  l1_68_convt3d_square_input_asym_kernel --precision tf32 --no-compile --runs 20 --warmup 3 \
  --time-budget $(( 380 - built )) --out "$OUT/bench" 2>&1 | grep -v Warning | tee "$LOG/bench.log" \
  | grep -E "verified|left|FAIL|rror"
rm -f "$OUT"/bench/*.png "$LOG/build.log"
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
