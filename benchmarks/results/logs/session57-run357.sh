#!/usr/bin/env bash
# Prepared in session 56; run as session 57 run 357.
# DCGAN's grad_input (0.482 ms of its 1.136 ms fwd+bwd, run 356) runs the plain 128-column wgmma gather tile
# because its GEMM rows are "spread" (W stride 2; choose_wider_gather). That rule was measured on HiFi-GAN (stride
# 8), never on DCGAN. This call times TCONV_GATHER_SPECIALIZED=0 / 1 / 2 (plain, 128 or 256 producers) against the
# default, two rounds, with the kernel breakdown of each. It also times the same switches on HiFi-GAN and U-Net,
# so a narrower rule (e.g. by stride) can be checked against the shapes that set the current one. It also times the
# 256-column plain tile (TCONV_GATHER_WIDEST=1, written in session 56 without a GPU: DCGAN's grad_input has 512
# columns, so each gathered A element would feed twice the MMAs), after its bitwise and contract tests and memcheck.
# Last, racecheck of the split sum (session 56 gave it 4 elements per thread; run 356 ran memcheck only).
# Pass TCONV_COMMIT=<sha from the development machine>.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
LOG="$OUT/logs"; mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 240 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_widest_gpu.py 2>&1 \
  | tee "$LOG/pytest_widest.log" | tail -2
TCONV_GATHER_WIDEST=1 timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_widest_gpu.py \
  -k contract 2>&1 | tee "$LOG/pytest_widest_contract.log" | tail -2
TCONV_GATHER_WIDEST=1 TCONV_GATHER_TMA=0 timeout 60 compute-sanitizer --tool memcheck --print-limit 20 \
  --show-backtrace no python3 scripts/gather_widest_sanitize.py > "$LOG/memcheck_widest.log" 2>&1
echo "memcheck widest rc $?: $(tail -1 "$LOG/memcheck_widest.log")"
(cd scripts
 for round in 1 2; do
   for mode in default 0 1 2 widest; do
     switches=""; [ "$mode" != default ] && switches="TCONV_GATHER_SPECIALIZED=$mode"
     [ "$mode" = widest ] && switches="TCONV_GATHER_WIDEST=1"
     env $switches timeout 60 python3 quick_timing.py real_dcgan_up real_hifigan_up real_unet3d_up --precision tf32 \
       --algorithm auto --runs 10 --json "$LOG/auto_spec_${mode}_r$round.json" 2>&1 \
       | sed "s/^/r$round spec=$mode /" | tee -a "$LOG/timing.log"
   done
 done
 for mode in default 1 2 widest; do
   switches=""; [ "$mode" != default ] && switches="TCONV_GATHER_SPECIALIZED=$mode"
   [ "$mode" = widest ] && switches="TCONV_GATHER_WIDEST=1"
   env $switches timeout 40 python3 kernel_breakdown.py real_dcgan_up --precision tf32 --iters 1 \
     --json "$LOG/kernels_dcgan_spec_$mode.json" > "$LOG/kernels_dcgan_spec_$mode.log" 2>&1
   echo "spec=$mode"; grep -A4 "^== " "$LOG/kernels_dcgan_spec_$mode.log" | cut -c1-150
 done)
timeout 100 compute-sanitizer --tool racecheck --kernel-name kns=sum_splits python3 tests/sanitize_small.py \
  > "$LOG/racecheck_sum_splits.log" 2>&1
echo "racecheck sum_splits rc $?: $(tail -1 "$LOG/racecheck_sum_splits.log")"
rm -f "$LOG/build.log"
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
