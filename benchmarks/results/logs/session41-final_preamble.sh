#!/usr/bin/env bash
# Session 41's last call, device_queue.sh's PREAMBLE on GPU 0 (the TF32 and bf16 suites run from
# session41-final_queue.txt on every GPU): the new rule and balanced-deal tests at the final commit, then GPU 0 joins.
export OMP_NUM_THREADS=16
t0=$SECONDS
timeout 150 python3 -m pytest -q -rfE --maxfail=6 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "balanced_bit_identical or auto_picks_grouped or grouped_mma_lines_kernel_runs or grouped_mma_grad_weight_item" \
  > $WORK/pytest_final.log 2>&1
echo "tests rc $? ($((SECONDS-t0)) s)"; tail -1 $WORK/pytest_final.log
grep -E "^FAILED|^ERROR" $WORK/pytest_final.log | head
