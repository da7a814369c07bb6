#!/usr/bin/env bash
# Run 313 (run 312's warm machine, built): memcheck and racecheck of sanitize_small on the unit-stride mma.sync
# kernels and on the split sum; verified TF32 bench rows of L1-71 and fam08; fam11 TF32 "auto" against forced.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
for kern in unit_stride_mma sum_splits; do
  for tool in memcheck racecheck; do
    timeout 100 compute-sanitizer --tool $tool --kernel-name kns=$kern python3 tests/sanitize_small.py \
      > "$OUT/sanitize_${kern}_$tool.log" 2>&1
    echo "$kern $tool rc $?: $(tail -1 "$OUT/sanitize_${kern}_$tool.log")"
  done
done
echo "sanitizers done after $(( $(date +%s) - start )) s"
timeout 240 python3 -m tconv bench l1_71_convt2d_asym_input_square_kernel fam08_convt1d_k5_d3_131072 \
  --precision tf32 --no-compile --runs 20 --warmup 3 --out "$OUT/bench" 2>&1 | grep -vE "^\s*$" | tail -8
rm -f "$OUT"/bench/*.png
echo "bench done after $(( $(date +%s) - start )) s"
(cd scripts && timeout 100 python3 quick_timing.py fam11_convt2d_k3x7_p1x3_512x1024 --precision tf32 \
  --algorithm auto unit_stride_mma --runs 10 --json "$OUT/quick_fam11.json" 2>&1 | tail -3)
echo "total $(( $(date +%s) - start )) s"
