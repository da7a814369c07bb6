#!/usr/bin/env bash
# Session 56, run 355: run 354 measured the 256-column direct form (DCGAN forward 0.320 -> 0.233 ms), now the default
# (TCONV_TMA_DIRECT_WIDE=0 keeps 128); the fixed-pitch kernel (level) is gone. The staged weight pack now issues all of
# a thread's loads before its shared stores (run 354: 0.034 ms a pack against 0.032, a chain of 16 latencies per
# thread), default on (TCONV_PACK_STAGED=0 off). The split sum decodes indices in 32 bits where they fit
# (TCONV_SUM_SPLITS_INDEX64=1 forces 64; DCGAN's sum 0.029 ms). Bitwise tests of the three, the direct contract tests,
# memcheck, DCGAN timings with each switch flipped, the kernel breakdown, a verified TF32 DCGAN row at the defaults,
# L1-68 / L2-61 timings at the defaults.
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
   for config in default pack0 index64 narrow; do
     case $config in
       default) switches="";; pack0) switches="TCONV_PACK_STAGED=0";; index64) switches="TCONV_SUM_SPLITS_INDEX64=1";;
       narrow) switches="TCONV_TMA_DIRECT_WIDE=0";;
     esac
     env $switches timeout 30 python3 quick_timing.py $S --precision tf32 --algorithm auto --runs 10 \
       --json "$LOG/auto_${config}_r$round.json" 2>&1 | sed "s/^/r$round $config /" | tee -a "$LOG/timing.log"
   done
 done
 timeout 40 python3 kernel_breakdown.py $S --precision tf32 --iters 1 \
   --json "$LOG/kernels_dcgan.json" > "$LOG/kernels_dcgan.log" 2>&1; grep -A8 "^== " "$LOG/kernels_dcgan.log" | cut -c1-150
 timeout 60 python3 quick_timing.py l1_68_convt3d_square_input_asym_kernel l2_61_convt3d_relu_groupnorm \
   --precision tf32 --algorithm auto --runs 10 --json "$LOG/auto_l1_68_l2_61.json" 2>&1 | tee -a "$LOG/timing.log")
echo "timings after $(( $(date +%s) - start )) s"
TCONV_COMMIT="${TCONV_COMMIT:-unknown}" timeout 60 python3 -m tconv bench $S --precision tf32 --no-compile \
  --runs 20 --warmup 3 --time-budget 50 --out "$OUT/bench" 2>&1 | grep -v Warning | tee "$LOG/bench.log" \
  | grep -E "verified|left|FAIL|rror|x "
echo "bench after $(( $(date +%s) - start )) s"
timeout $(( $(left) - 40 )) python3 -m pytest -q -rfE -p no:cacheprovider tests/test_pack_weight_gpu.py \
  tests/test_sum_splits_gpu.py tests/test_gather_tma_gpu.py -k "staged_pack or index32 or direct" 2>&1 \
  | tee "$LOG/pytest.log" | tail -4
timeout 35 compute-sanitizer --tool memcheck --print-limit 20 --show-backtrace no \
  python3 scripts/tma_gather_sanitize.py > "$LOG/memcheck.log" 2>&1; grep -v "^=========     " "$LOG/memcheck.log" | tail -3
rm -f "$OUT"/bench/*.png "$LOG/build.log"
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
