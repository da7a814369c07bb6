#!/usr/bin/env bash
# Session 100, run 532 (one H200, cold; ~1600 s of device time left). Run as
# TCONV_COMMIT=<full sha, typed out> bash benchmarks/results/logs/session100-run532.sh
# Run 531: memcheck 0 errors, racecheck 0 hazards on the one-tap kernels; ncu: fam13's one-tap forward (mma) 297 us at
# 1.37 TB/s, 24 % occupancy (128 registers, 680 K local spill requests), SM 60 %; L2-61's TF32 forward conv 979 us,
# tensor 59 %, one 256-thread block an SM (240 registers, 207 KB), 19.7 waves.
# 1. ncu source counters (stall samples by SASS line) of: fam13's one-tap forward (bf16 CL), fam01's forward (bf16
#    CL, the persistent window tile: 0.94x eager, never profiled since it became persistent), L2-61's TF32 forward
#    conv: where each block's cycles go.
# 2. The exact-fp32 suite (issue 4's second fp32 mode; its rows are from Nov 27, commit 4c57b91) in the time left;
#    the rest resumes in a later call.
source scripts/device_prelude.sh
profile() {  # profile NAME KERNEL_REGEX STEM PRECISION LAYOUT
  left 330 && timeout 100 ncu --clock-control none -k "regex:$2" --launch-skip 0 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --import-source no --page source --print-source sass --csv \
    python3 scripts/quick_timing.py "$3" --precision "$4" --runs 1 --warmup 1 --layout "$5" \
    > "$LOG/src_$1.csv" 2> "$LOG/src_$1.err"
  gzip -f "$LOG/src_$1.csv" && python3 scripts/ncu_source_summary.py "$LOG/src_$1.csv.gz" --top 12 \
    > "$LOG/src_$1.summary.txt" 2>&1; head -30 "$LOG/src_$1.summary.txt" | cut -c1-150
}
profile fam13_fwd one_tap_forward fam13_convt2d_k3_s5_p1_d2_64x128 bf16 channels_last
profile fam01_fwd gather_tma_window fam01_convt2d_k3_1024x1024 bf16 channels_last
profile l2_61_tf32_fwd strip_unit_stride_forward l2_61_convt3d_relu_groupnorm tf32 contiguous
bench_budget 560 fp32 contiguous --suite all
device_finish
