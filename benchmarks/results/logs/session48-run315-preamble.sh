#!/usr/bin/env bash
# Run 315's preamble on GPU 0 (scripts/device_queue.sh, built already): the grad_weight / grad_bias / determinism GPU
# tests and memcheck / racecheck of sanitize_small on the split sum (its lane count now chosen per call), then GPU 0
# joins the TF32 suite queue. Logs go to $WORK (packed by the queue script).
t0=$SECONDS
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  tests/test_grad_weight_ordered_gpu.py \
  -k "grad_weight or grad_bias or deterministic" > $WORK/pytest_sum.log 2>&1
echo "grad_weight/grad_bias tests rc $? ($((SECONDS-t0)) s): $(tail -1 $WORK/pytest_sum.log)"
grep -E "^FAILED|^ERROR" $WORK/pytest_sum.log | head -20
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --kernel-name kns=sum_splits python3 tests/sanitize_small.py \
    > $WORK/sanitize_sum_splits_$tool.log 2>&1
  echo "$tool rc $? ($((SECONDS-t0)) s): $(tail -1 $WORK/sanitize_sum_splits_$tool.log)"
done
