#!/usr/bin/env bash
# Session 55, run 351: the TMA kernels with shared memory aligned from the array (shared_aligned_1024: ld/st.shared and
# 32-bit addresses instead of run 350's generic LD.E in the direct form's fragment loads and every TMA epilogue).
# Memcheck, contract tests of the three TMA forms, then timings: DCGAN (auto with TCONV_TMA_DIRECT_AUTO off / on,
# forced direct, whole-batch copy), L1-68 and L2-61 under auto (the window and copy epilogues changed too), the
# direct kernel's stalls again.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
LOG="$OUT/logs"; mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
left() { echo $(( 560 - ($(date +%s) - start) )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 45 compute-sanitizer --tool memcheck --print-limit 20 --show-backtrace no python3 scripts/tma_gather_sanitize.py \
  > "$LOG/memcheck.log" 2>&1; grep -v "^=========     " "$LOG/memcheck.log" | tail -3
timeout 200 python3 -m pytest -q -rfE --maxfail=10 -p no:cacheprovider tests/test_gather_tma_gpu.py \
  -k "meets_the_contract or agrees_bitwise" 2>&1 | tee "$LOG/pytest_tma.log" | tail -4
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
 for P in l1_68_convt3d_square_input_asym_kernel l2_61_convt3d_relu_groupnorm; do
   timeout 60 python3 quick_timing.py $P --precision tf32 --algorithm auto --runs 5 2>&1 | tee -a "$LOG/timing.log"
 done
 TCONV_TMA_DIRECT_AUTO=1 timeout 40 python3 kernel_breakdown.py $S --precision tf32 --iters 1 \
   --json "$LOG/kernels_direct_auto.json" > "$LOG/kernels_direct_auto.log" 2>&1; head -8 "$LOG/kernels_direct_auto.log")
echo "timings after $(( $(date +%s) - start )) s"
[ "$(left)" -gt 50 ] && TCONV_TMA_DIRECT_AUTO=1 OUT="$LOG/direct" KERNEL=gather_tma_direct CASES="dcgan_tf32:$S:tf32" \
  bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_direct.log"
echo "ncu after $(( $(date +%s) - start )) s"
rm -f "$LOG/build.log"
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
