#!/usr/bin/env bash
# Run 295: the unit-stride grad_weight's auto rule after run 294 (C_in 32, C_out <= 64, <= 12 taps) - build, the
# grad_weight tests (where-planned included), verified bf16 rows of L1-71, fam11 (now off the kernel) and fam08.
P="l1_71_convt2d_asym_input_square_kernel fam08_convt1d_k5_d3_131072 fam11_convt2d_k3x7_p1x3_512x1024"
OUT=$OUT TESTS="unit_stride_mma_grad_weight" BENCH_PROBLEMS="$P" BENCH_TIMEOUT=200 bash scripts/device_check.sh
rm -f "$OUT/build.log"
