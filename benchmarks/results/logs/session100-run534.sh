#!/usr/bin/env bash
# Session 100, run 534 (one H200, cold; ~440 s of device time left, so it ends by ~320 s). Run as
# TCONV_COMMIT=<full sha, typed out> bash benchmarks/results/logs/session100-run534.sh
# Run 533: fam13's one-tap forward bf16 CL 0.300 -> 0.200 ms (predicted 0.19-0.22), TF32 CL 0.385 -> 0.335 (predicted
# 0.28-0.31: missed, its fp32 quads were 16-byte stores already); one-tap tests 118 passed.
# 1. the fp16 CL row of fam13; 2. source counters of the forward after the change and of the one-tap grad_weight
# (0.096 ms, DRAM 44 % in run 531): the next session's hot spots.
source scripts/device_prelude.sh
stem=fam13_convt2d_k3_s5_p1_d2_64x128
bench_budget 150 fp16 channels_last $stem
profile() {  # profile NAME KERNEL_REGEX STEM PRECISION LAYOUT
  left 240 && timeout 70 ncu --clock-control none -k "regex:$2" --launch-skip 0 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --import-source no --page source --print-source sass --csv \
    python3 scripts/quick_timing.py "$3" --precision "$4" --runs 1 --warmup 1 --layout "$5" \
    > "$LOG/src_$1.csv" 2> "$LOG/src_$1.err"
  gzip -f "$LOG/src_$1.csv" && python3 scripts/ncu_source_summary.py "$LOG/src_$1.csv.gz" --top 12 \
    > "$LOG/src_$1.summary.txt" 2>&1; head -24 "$LOG/src_$1.summary.txt" | cut -c1-150
}
profile fam13_fwd one_tap_forward $stem bf16 channels_last
profile fam13_gw one_tap_grad_weight $stem bf16 channels_last
device_finish
