#!/usr/bin/env bash
# Run 326: regression subset of the GPU tests with the TMA gather in the tree ("tf32 and igemm" of the main GPU file, the
# fused block's tests); DCGAN TF32 kernel by kernel (tconv and the original model); ncu of the TMA gather's grad_input
# (256-column tile) and forward; `tconv bench` of DCGAN twice more (its fwd+bwd spread in run 325: p20 1.111, p80 1.200).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 200 python3 -m pytest -q -rfE --maxfail=20 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "tf32 and igemm" 2>&1 | tee "$OUT/pytest_igemm.log" | tail -4
timeout 90 python3 -m pytest -q -rfE --maxfail=10 -p no:cacheprovider tests/test_fused_gpu.py 2>&1 \
  | tee "$OUT/pytest_fused.log" | tail -3
echo "tests after $(( $(date +%s) - start )) s"
(cd scripts && timeout 60 python3 kernel_breakdown.py real_dcgan_up --precision tf32 --iters 5 2>&1 | tee "$OUT/breakdown.log"
 timeout 60 python3 kernel_breakdown.py real_dcgan_up --precision tf32 --iters 5 --model original 2>&1 \
   | tee -a "$OUT/breakdown.log")
S="python3 scripts/quick_timing.py real_dcgan_up --precision tf32 --runs 1 --warmup 1"
timeout 120 ncu --clock-control none --kernel-name regex:"gather_tma_kernel" --launch-count 2 $S > "$OUT/ncu_dcgan_tma.txt" 2>&1
grep -E "gather_tma_kernel|Duration|Registers Per|Dynamic Shared|Compute \(SM\) Throughput|Memory Throughput|L2 Cache Throughput|DRAM Throughput|Issue Slots Busy|No Eligible|Warp Cycles Per Issued" \
  "$OUT/ncu_dcgan_tma.txt" | cut -c1-150 | head -30
echo "ncu after $(( $(date +%s) - start )) s"
for i in 1 2; do
  TCONV_COMMIT="${TCONV_COMMIT:-unknown}" timeout 150 python3 -m tconv bench real_dcgan_up --precision tf32 --no-compile \
    --runs 30 --warmup 5 --out "$OUT/bench$i" 2>&1 | grep -E "verified|real_dcgan_up  tf32"
done
rm -f "$OUT"/bench*/*.png
cd "$OUT" && tar czf logs.tgz pytest_*.log breakdown.log ncu_dcgan_tma.txt build.log && rm -f build.log ncu_dcgan_tma.txt
echo "total $(( $(date +%s) - start )) s"
