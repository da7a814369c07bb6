#!/usr/bin/env bash
# Session 94's second GPU call, run 501 (one H200, warm after session94-run500.sh; the build is ninja's no-op).
# 1. ncu's per-instruction stall samples of DCGAN's TMA grad_weight (run 495: 9.4 of 13.9 cycles between a warp's
#    issues on an L1TEX scoreboard dependency, tensor pipe 38 %, L2 28 %; the m64n128 form changed nothing and the
#    pair form lost, run 499): which instruction waits (mbarrier waits, the epilogue's fp32 stores, wgmma waits).
# 2. L2-61 TF32 (issue 5; last verified 1.262 / 4.565 ms against targets <= 1.0 / 8.5 / 3.4 = 2.5 ms).
source scripts/device_prelude.sh
OUT="$LOG" KERNEL=grad_weight_tma_kernel CASES="dcgan_bf16_cl:real_dcgan_up:bf16:auto:channels_last" \
  timeout 220 bash scripts/ncu_source.sh
python3 scripts/ncu_source_summary.py "$LOG/src_dcgan_bf16_cl.csv" --top 25 > "$LOG/ncu_summary.txt" 2>&1
head -60 "$LOG/ncu_summary.txt" | cut -c1-160
gzip -f "$LOG/src_dcgan_bf16_cl.csv"
bench_budget 570 tf32 contiguous l2_61_convt3d_relu_groupnorm
device_finish
