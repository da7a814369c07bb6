#!/usr/bin/env bash
# Session 98, run 524 (one H200, cold; the session's last call, ~530 s of device time left). Run as
# TCONV_COMMIT=<sha> bash benchmarks/results/logs/session98-run524.sh
# Run 523: the one-tap forward ran fam13 channels-last at 0.463 ms bf16 (gather 0.500), 0.493 TF32 (2.994) and exact
# fp32 (3.007), so "auto" now takes it for channels-last outputs with empty phases and at most 32 input channels (only
# fam13 in the suite). Run 523's tests did not start (its build took 151 s, past the part's bound), so here:
# 1. the one-tap tests at this commit (contract, launches, refusals, the rule, the random sweep's one-tap cases) and
#    the tiled grouped forward's; 2. verified fam13 rows at the default, bf16 and TF32 channels-last; 3. ncu of the
#    kernel with the compute and warp-state sections, for why it sits at 60 % SM / 18 % DRAM.
source scripts/device_prelude.sh
left 280 && gpu_tests 150 one_tap tests/test_conv_transpose_gpu.py "one_tap or grouped_tiled"
stem=fam13_convt2d_k3_s5_p1_d2_64x128
bench_budget 390 bf16 channels_last $stem
mv "$LOG/bench_channels_last.log" "$LOG/bench_channels_last_bf16.log" 2>/dev/null
bench_budget 440 tf32 channels_last $stem
left 445 && timeout 45 ncu --clock-control none -k "regex:tconv_one_tap" --launch-skip 0 --launch-count 1 \
  --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats --section WarpStateStats \
  --section SchedulerStats python3 scripts/quick_timing.py $stem --precision bf16 --layout channels_last --runs 1 \
  --warmup 1 > "$LOG/ncu_fam13_one_tap_compute.txt" 2>&1
grep -E "Duration|Executed Ipc|Issue Slots Busy|Eligible Warps|No Eligible|Stall|Executed Instructions  " \
  "$LOG/ncu_fam13_one_tap_compute.txt" | head -12
device_finish
