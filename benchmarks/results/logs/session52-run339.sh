#!/usr/bin/env bash
# Run 339: the TMA window kernel's source page on L1-68's TF32 forward (stall samples per SASS instruction, CSV for
# scripts/ncu_source_summary.py): where its warps wait at 60 % of the TF32 rate (run 338).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 200 ncu --clock-control none -k "regex:tma_window" --launch-skip 0 --launch-count 1 \
  --section SourceCounters --section WarpStateStats --section InstructionStats --import-source no \
  --page source --print-source sass --csv \
  python3 scripts/quick_timing.py l1_68_convt3d_square_input_asym_kernel --precision tf32 \
  --algorithm igemm_tma_window --runs 1 --warmup 1 > "$OUT/src_window_l1_68.csv" 2> "$OUT/src_window_l1_68.err"
wc -l "$OUT/src_window_l1_68.csv"; tail -3 "$OUT/src_window_l1_68.err"
python3 scripts/ncu_source_summary.py "$OUT/src_window_l1_68.csv" --top 25 2>&1 | head -70
gzip "$OUT/src_window_l1_68.csv"; rm -f "$OUT/build.log"
echo "total $(( $(date +%s) - start )) s"
