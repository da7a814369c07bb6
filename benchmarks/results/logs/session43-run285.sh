#!/usr/bin/env bash
# Run 285 (session 43): the unit-stride mma.sync kernel's window copies issued without divisions. Build; its GPU
# tests; same-process timings of "auto" without the kernel (TCONV_UNIT_STRIDE_MMA=0) against it forced (as run 282);
# `tconv bench` rows (verified) of L1-71 and fam11 in bf16 with the kernel under "auto".
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$SECONDS
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt"; cat "$OUT/gpu.txt"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
MAX_JOBS=16 python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -60 "$OUT/build.log"; echo BUILD FAILED; exit 1; }
python3 -m tconv info > "$OUT/info.txt" 2>&1
echo "built after $(( SECONDS - start )) s"
timeout 120 python3 -m pytest -q tests/test_conv_transpose_gpu.py -p no:cacheprovider -k "unit_stride_mma" \
  > "$OUT/pytest.log" 2>&1
echo "=== pytest exit $? ($(( SECONDS - start )) s)"; grep -E "passed|failed|^FAILED|Error" "$OUT/pytest.log" | tail -12
(cd scripts && TCONV_UNIT_STRIDE_MMA=0 timeout 150 python3 quick_timing.py \
  l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024 --precision bf16 tf32 \
  --algorithm auto unit_stride_mma --runs 20 --json "$OUT/ab.json") 2>&1 | tee "$OUT/ab.log"
echo "=== timings done ($(( SECONDS - start )) s)"
timeout $(( 570 - (SECONDS - start) )) python3 -m tconv bench \
  l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024 --precision bf16 --no-compile --runs 20 \
  --warmup 3 --out "$OUT/bench_bf16" 2>&1 | grep -vE "^\s*$" | tail -6
rm -f "$OUT"/bench_bf16/*.png
echo "=== done ($(( SECONDS - start )) s)"
