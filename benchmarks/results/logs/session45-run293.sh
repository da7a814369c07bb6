#!/usr/bin/env bash
# Run 293: the unit-stride grad_weight (16-bit) - build, its tests and the unit-stride ones, same-process timings with
# the new rule, compute-sanitizer on the unit_stride_mma kernels, verified bf16 rows; then "auto" with the kernel off
# (TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=0) and a kernel breakdown of L1-71 bf16.
P="l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024 fam08_convt1d_k5_d3_131072"
OUT=$OUT TESTS="unit_stride_mma" PROBLEMS="$P" PRECISIONS=bf16 ALGORITHMS=auto RUNS=20 SANITIZE=1 \
  SANITIZE_KERNELS=unit_stride_mma BENCH_PROBLEMS="$P" bash scripts/device_check.sh
export TCONV_BUILD_DIR=/tmp/tconv_build
TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=0 timeout 120 python3 scripts/quick_timing.py $P --precision bf16 --algorithm auto \
  --runs 20 --json "$OUT/quick_off.json" 2>&1 | tee "$OUT/quick_off.log"
timeout 60 python3 scripts/kernel_breakdown.py l1_71_convt2d_asym_input_square_kernel --precision bf16 --iters 3 2>&1 \
  | tail -12
