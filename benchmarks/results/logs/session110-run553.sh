#!/usr/bin/env bash
# Session 110's third call (run 553), one H100 or H200, cold, on the last ~300 s of device time; TCONV_COMMIT=<full
# sha>, END_S=<seconds it may run>. Run 552's source counters of the producer-warpgroup statistics (L2-61 TF32): the
# two passes held ~19 % of the kernel's samples, ~80 instructions a channel (bit-mask selects, ~5 a value and sample)
# on four latency-bound warps. This commit: 0/1 row weights (one FFMA a value and sample), per-row partial sums
# (kWords independent chains), a one-sample path for tiles within one sample.
# 1. The store-statistics tests. Predicted: pass.
# 2. L2-61 TF32 A/B (TCONV_CONV_STORE_STATISTICS 0 / 1), quick timing then kernel breakdown. Predicted: the conv
#    kernel's excess 0.231 -> ~0.08-0.12 ms, against the 0.131 ms pass: level to -0.05 ms on the forward.
source scripts/device_prelude.sh
end=${END_S:-285}
l2=l2_61_convt3d_relu_groupnorm
left $(( end - 90 )) && gpu_tests 40 store_stats tests/test_fused_gpu.py "conv_store"
for v in 0 1; do
  left $(( end - 45 )) && quick_time "store_stats_$v" $l2 tf32 auto TCONV_CONV_STORE_STATISTICS=$v | tee -a "$LOG/quick.log"
done
breakdowns_ab $end TCONV_CONV_STORE_STATISTICS "0 1" "unit_stride_forward|stats_channels|total" tf32 contiguous $l2
device_finish
