#!/usr/bin/env bash
# Run 323: fp32 unit_stride_mma in 8-channel stages (a518712) against 16-channel stages with two raw parts (45801f6,
# ab_old, carried): both built in parallel, quick timings alternating new / old (two rounds, TF32 L1-71 and fam11,
# bf16 L1-71 as the control); the unit_stride GPU tests and the sanitizers on the new build; verified TF32 bench rows.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
FINAL="$OUT"; OUT=/tmp/run323; mkdir -p "$OUT/bf16"  # logs packed into $FINAL/run323.tgz (the tool returns 8 files)
pack() { tar czf "$FINAL/run323.tgz" -C "$OUT" .; }
trap pack EXIT
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
ROUNDS=2 PRECISIONS="tf32" bash scripts/device_ab.sh ab_old l1_71_convt2d_asym_input_square_kernel \
  fam11_convt2d_k3x7_p1x3_512x1024 2>&1 | grep -E "^(new|old) " | tee "$OUT/ab.log"
[ -s "$OUT/ab.log" ] || { tail -30 "$OUT/build_new.log"; tail -10 "$OUT/build_old.log"; exit 1; }
echo "A/B after $(( $(date +%s) - start )) s"
OUT="$OUT/bf16" SKIP_BUILD=1 ROUNDS=1 PRECISIONS="bf16" bash scripts/device_ab.sh ab_old l1_71_convt2d_asym_input_square_kernel \
  2>&1 | grep -E "^(new|old) " | tee -a "$OUT/ab.log"
export TCONV_BUILD_DIR=/tmp/tconv_build
timeout 120 python3 -m pytest -q -rfE --maxfail=10 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k unit_stride 2>&1 | tee "$OUT/pytest.log" | tail -4
echo "tests after $(( $(date +%s) - start )) s"
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --kernel-name kns=unit_stride_mma_kernel python3 tests/sanitize_small.py \
    > "$OUT/sanitize_$tool.log" 2>&1
  echo "$tool rc $?: $(tail -1 "$OUT/sanitize_$tool.log")"
done
echo "sanitizers after $(( $(date +%s) - start )) s"
TCONV_COMMIT=a518712 timeout 150 python3 -m tconv bench l1_71_convt2d_asym_input_square_kernel \
  fam11_convt2d_k3x7_p1x3_512x1024 --precision tf32 --no-compile --runs 20 --warmup 3 --out "$FINAL" 2>&1 \
  | grep -vE "^\s*$" | tail -5
rm -f "$FINAL"/*.png
echo "total $(( $(date +%s) - start )) s"
