#!/usr/bin/env bash
# Run 286 (session 44): unit_stride_mma's folded tiles (the warps side by side along x, for 1D and few-row calls).
# Build; the unit-stride GPU tests (the forced grid with the folded cases, the refusals, the auto rule; also the
# host mend of 41b1001, which no GPU has run); compute-sanitizer memcheck and racecheck of tests/sanitize_small.py
# restricted to the unit_stride_mma kernel (never run before); same-process timings of "auto" without the kernel
# (TCONV_UNIT_STRIDE_MMA=0) against it forced on the 1D suite rows; an ncu profile of L1-71 bf16's forward on it.
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
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "unit_stride" \
  > "$OUT/pytest.log" 2>&1
echo "=== pytest exit $? ($(( SECONDS - start )) s)"; grep -E "passed|failed|^FAILED|Error" "$OUT/pytest.log" | tail -12
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool "$tool" --kernel-name kns=unit_stride_mma python3 tests/sanitize_small.py \
    > "$OUT/$tool.log" 2>&1
  echo "=== $tool exit $? ($(( SECONDS - start )) s)"; tail -2 "$OUT/$tool.log"
done
(cd scripts && TCONV_UNIT_STRIDE_MMA=0 timeout 170 python3 quick_timing.py \
  fam08_convt1d_k5_d3_131072 fam04_convt1d_k3_65536 --precision bf16 tf32 \
  --algorithm auto unit_stride_mma --runs 20 --json "$OUT/ab.json") 2>&1 | tee "$OUT/ab.log"
echo "=== timings done ($(( SECONDS - start )) s)"
timeout $(( 560 - (SECONDS - start) )) ncu --clock-control none --target-processes all -k "regex:unit_stride_mma" \
  --launch-skip 0 --launch-count 1 --set full \
  python3 scripts/quick_timing.py l1_71_convt2d_asym_input_square_kernel --precision bf16 --runs 1 --warmup 1 \
  > "$OUT/ncu_l1_71_bf16.txt" 2>&1
echo "=== ncu exit $? ($(( SECONDS - start )) s)"
grep -E "Duration|Registers Per|Achieved Occupancy|Memory Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|No Eligible|Bank" "$OUT/ncu_l1_71_bf16.txt" | head -20
echo "=== done ($(( SECONDS - start )) s)"
