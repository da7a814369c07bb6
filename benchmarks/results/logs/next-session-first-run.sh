#!/usr/bin/env bash
# Prepared in session 88 for the next session's first GPU call (one H200; rename to sessionNN-runMMM.sh when it runs,
# fix these lines, commit BEFORE the call (the device tool copies the working tree, uncommitted edits included), pass
# TCONV_COMMIT=<literal full sha>, and leave the tree alone until the call has started).
# Session 88 (runs 476-478): 4 producer warps in the window grad_weight (fam02 fwd+bwd 1.201, L1-68 9.073 verified),
# the window forward's channels-last epilogue by counting (fam01's forward 2.350 -> 1.868), wide lines from 3 W taps
# in grad_input too. Channels-last bf16 geomean 1.26x / 1.15x.
# 1. the window grad_weight's contract under the default 4 producers over 8 stages (bf16 and fp16: run 478 had no
#    time for it; run 477 passed 1 producer and 4 over 6 stages on every contract and deep case);
# 2. ncu source counters of fam01's window forward after the epilogue (what is left of a block's ~26400-clock wave:
#    ring fill, prologue, store) and of fam02's window grad_weight at 4 producers (the shared-memory reads?);
# 3. verified rows of the other window grad_weight users under 4 producers: fam03, fam07, L1-71, fam11.
source scripts/device_prelude.sh
left 300 && gpu_tests 80 gw_window tests/test_grad_weight_window_gpu.py "meets_the_contract"
left 360 && KERNEL=gather_tma_window CASES="fwd_fam01_cl_bf16:fam01_convt2d_k3_1024x1024:bf16:auto:channels_last" \
  OUT="$LOG" timeout 110 bash scripts/ncu_source.sh 2>&1 | tee "$LOG/ncu_source.log"
left 450 && KERNEL=grad_weight_window CASES="gw_fam02_cl_bf16:fam02_convt3d_k3x5x7_16x32x64:bf16:auto:channels_last" \
  OUT="$LOG" timeout 110 bash scripts/ncu_source.sh 2>&1 | tee -a "$LOG/ncu_source.log"
gzip -f "$LOG"/src_*.csv 2>/dev/null
bench_budget 570 bf16 channels_last fam03_convt3d_k3_64x64x64 fam07_convt3d_k3_96x96x96 \
  l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024
device_finish
