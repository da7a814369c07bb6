#!/usr/bin/env bash
# Session 89, run 482 (one H200, warm after run 481), prepared in session 88; the 16-bit window auto-switch test after.
# fam06 (N 64, 64 -> 128, 3 x 5, 128 x 256) is the furthest below eager in channels-last bf16: forward 1.607 ms
# against cuDNN's ~0.72 (0.45x, run 477). Its forward runs the 16-bit per-tap boxes (128 columns: the 16-bit window
# refuses more than 64, run 469: 2.220 against 1.722). Source counters of both forms say which part of each block's
# life to take on (the window forward's counters on fam01 found a divided epilogue, run 476).
source scripts/device_prelude.sh
left 330 && KERNEL=gather_tma16 CASES="fwd_fam06_cl_bf16:fam06_convt2d_k3x5_128x256:bf16:auto:channels_last" \
  OUT="$LOG" timeout 110 bash scripts/ncu_source.sh 2>&1 | tee "$LOG/ncu_source.log"
left 440 && KERNEL=gather_tma_window \
  CASES="win_fam06_cl_bf16:fam06_convt2d_k3x5_128x256:bf16:igemm_tma_window:channels_last" OUT="$LOG" \
  timeout 110 bash scripts/ncu_source.sh 2>&1 | tee -a "$LOG/ncu_source.log"
gzip -f "$LOG"/src_*.csv 2>/dev/null
for algorithm in auto igemm_tma_window; do
  left 540 && LAYOUT=channels_last quick_time "$algorithm" fam06_convt2d_k3x5_128x256 bf16 $algorithm \
    | tee -a "$LOG/timing.log"
done
left 420 && gpu_tests 150 window_auto tests/test_gather_tma_gpu.py "window_16bit_auto_switch"
device_finish
