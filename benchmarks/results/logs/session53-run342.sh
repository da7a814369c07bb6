#!/usr/bin/env bash
# Run 342: the copy budget on by default (10 % of the output; chunks of 4+ waves or no TMA under "auto") and the
# window's auto rule under it: TMA gather tests, the auto-path contract tests, memcheck; "auto" timings against
# TCONV_TMA_COPY_BUDGET=0 (the whole-batch copy, as before) and TCONV_GATHER_TMA=0; then verified TF32 bench rows
# within the call's time (the rest resumable).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
LOG="$OUT/logs"; mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 150 python3 -m pytest -q -rfE --maxfail=10 -p no:cacheprovider tests/test_gather_tma_gpu.py \
  2>&1 | tee "$LOG/pytest_tma.log" | tail -4
timeout 100 python3 -m pytest -q -rfE --maxfail=10 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "auto and tf32" 2>&1 | tee "$LOG/pytest_auto.log" | tail -2
timeout 60 compute-sanitizer --tool memcheck --print-limit 20 python3 scripts/tma_gather_sanitize.py 2>&1 \
  | tail -3 | tee "$LOG/memcheck.log"
echo "tests after $(( $(date +%s) - start )) s"
S="l1_68_convt3d_square_input_asym_kernel real_dcgan_up"
(cd scripts
 timeout 40 python3 quick_timing.py $S --precision tf32 --algorithm auto --runs 10 --json "$LOG/t_default.json" 2>&1 \
   | sed "s/^/default /" | tee -a "$LOG/settings.log"
 TCONV_TMA_COPY_BUDGET=0 timeout 40 python3 quick_timing.py $S --precision tf32 --algorithm auto --runs 10 \
   --json "$LOG/t_unbounded.json" 2>&1 | sed "s/^/unbounded /" | tee -a "$LOG/settings.log"
 TCONV_GATHER_TMA=0 TCONV_TMA_WINDOW_AUTO=0 timeout 40 python3 quick_timing.py real_dcgan_up --precision tf32 \
   --algorithm auto --runs 10 --json "$LOG/t_no_tma.json" 2>&1 | sed "s/^/no_tma /" | tee -a "$LOG/settings.log")
built=$(( $(date +%s) - start ))
echo "timings after $built s"
TCONV_COMMIT="${TCONV_COMMIT:-unknown}" timeout $(( 585 - built )) python3 -m tconv bench \
  l1_68_convt3d_square_input_asym_kernel real_dcgan_up l2_61_convt3d_relu_groupnorm \
  l1_71_convt2d_asym_input_square_kernel l1_72_convt3d_asym_kernel_strided_padded_grouped \
  l1_73_convt3d_strided_padded_grouped --precision tf32 --no-compile --runs 20 --warmup 3 \
  --time-budget $(( 560 - built )) --out "$OUT/bench" 2>&1 | grep -v Warning | tee "$LOG/bench.log" \
  | grep -E "verified|geomean|left|FAIL|rror"
rm -f "$OUT"/bench/*.png "$LOG/build.log"
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
