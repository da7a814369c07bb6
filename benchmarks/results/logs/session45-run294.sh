#!/usr/bin/env bash
# Run 294: the unit-stride grad_weight's second form (4-row tiles, grad_output read raw by plain ldmatrix, two blocks
# per SM at <= 12 taps) - build, its tests and the unit-stride ones, timings (auto with the rule, forced, and auto
# with the kernel off, one build), compute-sanitizer on the unit_stride_mma kernels, verified bf16 rows, a breakdown.
P="l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024 fam08_convt1d_k5_d3_131072"
OUT=$OUT TESTS="unit_stride_mma" PROBLEMS="$P" PRECISIONS=bf16 ALGORITHMS="auto unit_stride_mma" RUNS=20 SANITIZE=1 \
  SANITIZE_KERNELS=unit_stride_mma BENCH_PROBLEMS="$P" bash scripts/device_check.sh
export TCONV_BUILD_DIR=/tmp/tconv_build
TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=0 timeout 120 python3 scripts/quick_timing.py $P --precision bf16 --algorithm auto \
  --runs 20 2>&1 | tee "$OUT/quick_off.log"
timeout 60 python3 scripts/kernel_breakdown.py l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024 \
  --precision bf16 --iters 3 2>&1 | grep -v Warn | tail -14
rm -f "$OUT/build.log" "$OUT/quick.json"
