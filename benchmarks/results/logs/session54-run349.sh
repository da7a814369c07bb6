#!/usr/bin/env bash
# Session 54, run 349 (the session's last device time): the direct TMA form with one row per channel (flat boxes:
# H and W joined where a tile is whole source lines; tiles of one line segment) and TCONV_TMA_DIRECT_AUTO=1 ("auto"
# takes it there). Direct and selection tests, memcheck, DCGAN timings (auto with the switch off / on, forced direct,
# the whole-batch copy), its per-kernel times with the switch on, then a verified TF32 row of DCGAN with it on.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
LOG="$OUT/logs"; mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 90 python3 -m pytest -q -rfE --maxfail=10 -p no:cacheprovider tests/test_gather_tma_gpu.py \
  -k "direct or is_what_runs or keeps_the_copy_budget or only_under or stays_off" 2>&1 \
  | tee "$LOG/pytest_tma.log" | tail -3
timeout 45 compute-sanitizer --tool memcheck --print-limit 20 --show-backtrace no python3 scripts/tma_gather_sanitize.py \
  > "$LOG/memcheck.log" 2>&1; grep -v "^=========     " "$LOG/memcheck.log" | tail -4
echo "tests after $(( $(date +%s) - start )) s"
S=real_dcgan_up
(cd scripts
 for round in 1 2; do
   timeout 30 python3 quick_timing.py $S --precision tf32 --algorithm auto --runs 10 --json "$LOG/auto_r$round.json" \
     2>&1 | sed "s/^/r$round switch0 /" | tee -a "$LOG/timing.log"
   TCONV_TMA_DIRECT_AUTO=1 timeout 30 python3 quick_timing.py $S --precision tf32 --algorithm auto --runs 10 \
     --json "$LOG/auto_direct_r$round.json" 2>&1 | sed "s/^/r$round switch1 /" | tee -a "$LOG/timing.log"
 done
 timeout 30 python3 quick_timing.py $S --precision tf32 --algorithm igemm_tma_direct --runs 10 \
   --json "$LOG/direct.json" 2>&1 | tee -a "$LOG/timing.log"
 TCONV_TMA_COPY_BUDGET=0 timeout 30 python3 quick_timing.py $S --precision tf32 --algorithm igemm_tma --runs 10 \
   --json "$LOG/copy.json" 2>&1 | tee -a "$LOG/timing.log"
 TCONV_TMA_DIRECT_AUTO=1 timeout 40 python3 kernel_breakdown.py $S --precision tf32 --iters 1 \
   --json "$LOG/kernels_direct_auto.json" > "$LOG/kernels_direct_auto.log" 2>&1; head -8 "$LOG/kernels_direct_auto.log")
built=$(( $(date +%s) - start ))
echo "timings after $built s"
TCONV_TMA_DIRECT_AUTO=1 TCONV_COMMIT="${TCONV_COMMIT:-unknown}" timeout $(( 420 - built )) python3 -m tconv bench $S \
  --precision tf32 --no-compile --runs 20 --warmup 3 --time-budget $(( 400 - built )) --out "$OUT/bench" 2>&1 \
  | grep -v Warning | tee "$LOG/bench.log" | grep -E "verified|left|FAIL|rror|x "
rm -f "$OUT"/bench/*.png "$LOG/build.log"
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
