#!/usr/bin/env bash
# Prepared in session 54, run in session 55 as run 350 (grad_input's stalls added; each test part guarded by time): why the
# direct TMA form (one box row per channel) runs DCGAN's forward at 197 TF/s (0.349 ms, run 349) where the copy
# form's GEMM runs at ~360: ncu stall breakdown and source page of the direct kernel, the copy form's kernel beside it
# (whole batch, TCONV_TMA_COPY_BUDGET=0), then the TMA test file with TCONV_TMA_DIRECT_AUTO=1 (which selection tests
# the switch moves: their expectations change if it goes on by default) and without it (the part run 349 left).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
LOG="$OUT/logs"; mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
C="dcgan_tf32:real_dcgan_up:tf32"
TCONV_TMA_DIRECT_AUTO=1 OUT="$LOG/direct" KERNEL=gather_tma_direct CASES="$C" bash scripts/ncu_stalls.sh 2>&1 \
  | tee "$LOG/ncu_direct.log"
TCONV_TMA_COPY_BUDGET=0 OUT="$LOG/copy" KERNEL="gather_tma_kernel" CASES="$C" bash scripts/ncu_stalls.sh 2>&1 \
  | tee "$LOG/ncu_copy.log"
# DCGAN's grad_input (the cp.async gather at W stride 2, 0.479 ms in run 349): with the switch on, the first
# gather_tf32 launch of quick_timing's warm-up forward+backward is grad_input's.
TCONV_TMA_DIRECT_AUTO=1 OUT="$LOG/grad_input" KERNEL="gather_tf32_kernel" CASES="$C" bash scripts/ncu_stalls.sh 2>&1 \
  | tee "$LOG/ncu_grad_input.log"
TCONV_TMA_DIRECT_AUTO=1 OUT="$LOG/direct" KERNEL=gather_tma_direct CASES="$C" bash scripts/ncu_source.sh 2>&1 | tail -2
python3 scripts/ncu_source_summary.py "$LOG/direct/src_dcgan_tf32.csv" --top 25 2>&1 | head -60 | tee "$LOG/src_summary.log"
gzip "$LOG/direct/src_dcgan_tf32.csv"
echo "ncu after $(( $(date +%s) - start )) s"
left() { echo $(( 560 - ($(date +%s) - start) )); }
[ "$(left)" -gt 60 ] && TCONV_TMA_DIRECT_AUTO=1 timeout $(( $(left) - 40 )) python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_tma_gpu.py \
  -k "not meets_the_contract and not tile_widths_agree" 2>&1 | tee "$LOG/pytest_switch_on.log" | tail -12
[ "$(left)" -gt 60 ] && timeout $(( $(left) - 20 )) python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_tma_gpu.py \
  -k "not direct and not meets_the_contract" 2>&1 | tee "$LOG/pytest_switch_off.log" | tail -3
rm -f "$LOG/build.log"
tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
echo "total $(( $(date +%s) - start )) s"
