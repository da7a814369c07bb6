#!/usr/bin/env bash
# Session 54, run 348: igemm_tma_direct with boxes padded to a channel pitch of 8 or 24 modulo 32 floats (run 347:
# 4-way bank conflicts on the fragment loads, 1.6-3.4x slower than the copy) — its tests, memcheck, then
# forward/fwd+bwd timings of DCGAN, L1-68 and L2-61 under the direct form against the copy-based TMA gather (whole
# batch: TCONV_TMA_COPY_BUDGET=0) and "auto".
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
LOG="$OUT/logs"; mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 200 python3 -m pytest -q -rfE --maxfail=10 -p no:cacheprovider tests/test_gather_tma_gpu.py -k direct \
  2>&1 | tee "$LOG/pytest_direct.log" | tail -4
timeout 60 compute-sanitizer --tool memcheck --print-limit 20 --show-backtrace no python3 scripts/tma_gather_sanitize.py \
  > "$LOG/memcheck.log" 2>&1; grep -v "^=========     " "$LOG/memcheck.log" | tail -5
echo "tests after $(( $(date +%s) - start )) s"
S="real_dcgan_up l1_68_convt3d_square_input_asym_kernel l2_61_convt3d_relu_groupnorm"
(cd scripts
 for round in 1 2; do
   timeout 50 python3 quick_timing.py $S --precision tf32 --algorithm igemm_tma_direct --runs 10 \
     --json "$LOG/direct_r$round.json" 2>&1 | sed "s/^/r$round /" | tee -a "$LOG/timing.log"
   timeout 50 python3 quick_timing.py $S --precision tf32 --algorithm auto --runs 10 \
     --json "$LOG/auto_r$round.json" 2>&1 | sed "s/^/r$round /" | tee -a "$LOG/timing.log"
   TCONV_TMA_COPY_BUDGET=0 timeout 50 python3 quick_timing.py $S --precision tf32 --algorithm igemm_tma --runs 10 \
     --json "$LOG/copy_r$round.json" 2>&1 | sed "s/^/r$round /" | tee -a "$LOG/timing.log"
 done)
rm -f "$LOG/build.log"
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
