#!/usr/bin/env bash
# Run 283's preamble on GPU 0 (scripts/device_queue.sh PREAMBLE): the unit-stride tests (the new kernel's grid, its
# refusals and auto rule; the strip forms' rules it changed), the strip rule test, and the fused GPU tests (the
# conv-store statistics path now steps aside where the new kernel runs the forward).
timeout 240 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py tests/test_fused_gpu.py \
  -k "unit_stride or strip_kernels_run or fused or group_norm or conv_stats or optimize" > "$WORK/pytest.log" 2>&1
echo "pytest exit $?"
grep -E "passed|failed" "$WORK/pytest.log" | tail -3
grep -E "^FAILED|^ERROR" "$WORK/pytest.log" | head -20
