#!/usr/bin/env bash
# Session 56, run 356 (the session's last device time): run 355's kernel breakdown showed the packs at 2 x 14 us and
# the split sum at 24 us for DCGAN's 8 MB weight (~4-5 us of DRAM traffic each; kernel_breakdown's ms are totals over
# launches). Now the staged pack gives each thread one (k, n) channel pair and reads its taps in one unrolled run (no
# per-element division), and the split sum takes 4 consecutive elements per thread (one decode, then carries).
# DCGAN timings (defaults against TCONV_PACK_STAGED=0), kernel breakdown, a verified TF32 DCGAN row at the defaults,
# the pack and split-sum bitwise tests, the grad_weight GPU tests (every grad_weight path ends in the split sum),
# memcheck of the two kernels on tests/sanitize_small.py.
# Pass TCONV_COMMIT=<sha from the development machine>.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
LOG="$OUT/logs"; mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
left() { echo $(( 570 - ($(date +%s) - start) )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
S=real_dcgan_up
(cd scripts
 for round in 1 2; do
   for config in default pack0; do
     case $config in default) switches="";; pack0) switches="TCONV_PACK_STAGED=0";; esac
     env $switches timeout 30 python3 quick_timing.py $S --precision tf32 --algorithm auto --runs 10 \
       --json "$LOG/auto_${config}_r$round.json" 2>&1 | sed "s/^/r$round $config /" | tee -a "$LOG/timing.log"
   done
 done
 timeout 40 python3 kernel_breakdown.py $S --precision tf32 --iters 1 \
   --json "$LOG/kernels_dcgan.json" > "$LOG/kernels_dcgan.log" 2>&1; grep -A8 "^== " "$LOG/kernels_dcgan.log" | cut -c1-150)
echo "timings after $(( $(date +%s) - start )) s"
TCONV_COMMIT="${TCONV_COMMIT:-unknown}" timeout 60 python3 -m tconv bench $S --precision tf32 --no-compile \
  --runs 20 --warmup 3 --time-budget 50 --out "$OUT/bench" 2>&1 | grep -v Warning | tee "$LOG/bench.log" \
  | grep -E "verified|left|FAIL|rror|x "
echo "bench after $(( $(date +%s) - start )) s"
for kernel in sum_splits pack_weight_staged; do
  timeout 40 compute-sanitizer --tool memcheck --kernel-name kns=$kernel --print-limit 20 --show-backtrace no \
    python3 tests/sanitize_small.py > "$LOG/memcheck_$kernel.log" 2>&1
  echo "memcheck $kernel rc $?: $(grep -v '^=========     ' "$LOG/memcheck_$kernel.log" | tail -1)"
done
timeout $(( $(left) - 15 )) python3 -m pytest -q -rfE -p no:cacheprovider tests/test_pack_weight_gpu.py \
  tests/test_sum_splits_gpu.py tests/test_grad_weight_ordered_gpu.py tests/test_conv_transpose_gpu.py \
  -k "staged_pack or index32 or ordered or grad_weight" 2>&1 | tee "$LOG/pytest.log" | tail -4
rm -f "$OUT"/bench/*.png "$LOG/build.log"
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
