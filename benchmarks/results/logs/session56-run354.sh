#!/usr/bin/env bash
# Session 56, run 354 (prepared in session 55 as next-session-first-run.sh): the direct
# TMA kernel built for one-row boxes' 136-float pitch (TCONV_TMA_DIRECT_FIXED_PITCH=1, written without a GPU: its
# fragment loads at compile-time offsets; the default kernels' PTX is unchanged). Its bitwise test and the direct
# contract tests under the switch, memcheck, DCGAN timings with the switch off / on (forward 0.322-0.326 ms, kernel
# 0.304-0.306 at the session-55 defaults) and its ncu stalls. Also the staged weight pack (TCONV_PACK_STAGED=1, also
# written without a GPU), and the split sum's row-major store (TCONV_SUM_SPLITS_ROW_MAJOR=1, likewise): their bitwise
# tests and DCGAN with all three switches (packs 2 x 0.032 ms and the split sum 0.029 at the defaults); and the direct
# form on 256 columns (TCONV_TMA_DIRECT_WIDE=1, setmaxnreg 40 / 232): its bitwise test, DCGAN with it alone and with
# the other three.
# Pass TCONV_COMMIT=<sha from the development machine>.
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
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_tma_gpu.py tests/test_pack_weight_gpu.py \
  tests/test_sum_splits_gpu.py -k "fixed_pitch or direct_wide or staged_pack or row_major" 2>&1 | tee "$LOG/pytest_fixed.log" | tail -3
TCONV_TMA_DIRECT_FIXED_PITCH=1 TCONV_TMA_DIRECT_WIDE=1 timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider \
  tests/test_gather_tma_gpu.py -k "direct_meets or direct_agrees" 2>&1 | tee "$LOG/pytest_direct_fixed.log" | tail -3
TCONV_TMA_DIRECT_FIXED_PITCH=1 TCONV_TMA_DIRECT_WIDE=1 timeout 45 compute-sanitizer --tool memcheck --print-limit 20 --show-backtrace no \
  python3 scripts/tma_gather_sanitize.py > "$LOG/memcheck.log" 2>&1; grep -v "^=========     " "$LOG/memcheck.log" | tail -3
echo "tests after $(( $(date +%s) - start )) s"
S=real_dcgan_up
(cd scripts
 THREE="TCONV_TMA_DIRECT_FIXED_PITCH=1 TCONV_PACK_STAGED=1 TCONV_SUM_SPLITS_ROW_MAJOR=1"
 for round in 1 2; do
   for config in none three three_wide wide; do
     case $config in
       none) switches="";; three) switches="$THREE";; three_wide) switches="$THREE TCONV_TMA_DIRECT_WIDE=1";;
       wide) switches="TCONV_TMA_DIRECT_WIDE=1";;
     esac
     env $switches timeout 30 python3 quick_timing.py $S --precision tf32 --algorithm auto --runs 10 \
       --json "$LOG/auto_${config}_r$round.json" 2>&1 | sed "s/^/r$round $config /" | tee -a "$LOG/timing.log"
   done
 done
 env $THREE TCONV_TMA_DIRECT_WIDE=1 timeout 40 python3 kernel_breakdown.py $S --precision tf32 --iters 1 \
   --json "$LOG/kernels_fixed.json" > "$LOG/kernels_fixed.log" 2>&1; grep -A8 "^== " "$LOG/kernels_fixed.log" | cut -c1-150)
echo "timings after $(( $(date +%s) - start )) s"
[ "$(left)" -gt 50 ] && TCONV_TMA_DIRECT_FIXED_PITCH=1 TCONV_TMA_DIRECT_WIDE=1 OUT="$LOG/fixed" KERNEL=gather_tma_direct \
  CASES="dcgan_tf32:$S:tf32" bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_fixed.log"
rm -f "$LOG/build.log"
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
