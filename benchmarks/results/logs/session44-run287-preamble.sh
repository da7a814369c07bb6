#!/usr/bin/env bash
# Run 287's preamble on GPU 0 (scripts/device_queue.sh PREAMBLE): the unit-stride tests (the forced grid with the
# folded 1D cases, the refusals, the auto rule with its folded 1D rows) and the strip rule tests; then an Nsight
# Compute source page (per-SASS-instruction counts and stall samples) of unit_stride_mma on L1-71 bf16's forward,
# for the instruction budget of its tile (run 286: 227 M instructions, ~3.2 K per warp and tile).
timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py tests/test_fused_gpu.py \
  -k "unit_stride or strip_kernels_run or where_planned" > "$WORK/pytest.log" 2>&1
echo "pytest exit $?"
grep -E "passed|failed" "$WORK/pytest.log" | tail -3
grep -E "^FAILED|^ERROR" "$WORK/pytest.log" | head -20
OUT="$WORK" KERNEL=unit_stride_mma CASES="l1_71_bf16:l1_71_convt2d_asym_input_square_kernel:bf16" \
  timeout 120 bash scripts/ncu_source.sh
gzip -f "$WORK"/src_*.csv
