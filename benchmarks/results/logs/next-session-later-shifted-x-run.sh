#!/usr/bin/env bash
# Prepared in session 78 (header updated in sessions 79 and 81, still pending) for a later GPU call (one H200;
# rename to sessionNN-runMMM.sh when it runs, fix these lines, commit, pass TCONV_COMMIT=<literal full sha>).
# Run 445's source counters found the channel-tile shifted-x grad_weight bound by producer lane 0's scalar work. The
# measured and narrow forms' per-row (kd, kh) divisions were hoisted out of their unit loop in session 79 (2b672ef),
# which left L1-71 TF32 level (2.160 ms fwd+bwd against 2.155) and fam05 TF32 at 4.799 against 4.959 (across calls):
# so whether lane 0 still bounds them, per role (scripts/ncu_source_summary.py offline: the producer warp's samples
# against one resident warp's share, the consumers' waits on ready and full):
# 1. L1-71 TF32 (narrow form), fam05 TF32 (measured form, 4 stages), L2-61 TF32 (measured, 6 stages, sliding rows);
# 2. fam02 TF32 (the lean form) while time is left.
source scripts/device_prelude.sh
left 330 && OUT="$LOG" KERNEL=shifted_x_narrow CASES="l1_71_tf32:l1_71_convt2d_asym_input_square_kernel:tf32" \
  timeout 110 bash scripts/ncu_source.sh 2>&1 | tee "$LOG/ncu_src.log"
left 400 && OUT="$LOG" KERNEL="shifted_x_kernel" CASES="fam05_tf32:fam05_convt2d_k3x7_512x512:tf32" timeout 110 \
  bash scripts/ncu_source.sh 2>&1 | tee -a "$LOG/ncu_src.log"
left 470 && OUT="$LOG" KERNEL="shifted_x_kernel" CASES="l2_61_tf32:l2_61_convt3d_relu_groupnorm:tf32" timeout 110 \
  bash scripts/ncu_source.sh 2>&1 | tee -a "$LOG/ncu_src.log"
left 480 && OUT="$LOG" KERNEL=shifted_x_lean CASES="fam02_tf32:fam02_convt3d_k3x5x7_16x32x64:tf32" timeout 90 \
  bash scripts/ncu_source.sh 2>&1 | tee -a "$LOG/ncu_src.log"
gzip -f "$LOG"/src_*.csv 2>/dev/null
device_finish
