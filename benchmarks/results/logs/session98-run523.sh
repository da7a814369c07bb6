#!/usr/bin/env bash
# Session 98, run 523 (one H200, cold). Run as TCONV_COMMIT=<sha> bash benchmarks/results/logs/session98-run523.sh
# Run 522: the one-tap forward passed its tests (102) but ran fam13 at 0.723 ms bf16 channels-last (auto 0.500), 0.758
# TF32 (auto 2.985) and exact fp32 (auto 2.997); ncu: SM 57 %, DRAM 11 %, so instruction-bound. The bias loop did three
# 64-bit divisions per 4-channel store (~5000 instructions a thread against 1536 FFMA); it now tracks r = (ow + p) mod
# s incrementally, and a block owns 64 input positions (256 threads) so the weights are staged half as often.
# Predicted: ~0.2-0.25 ms in every precision (~117 M warp instructions at ~60 % issue).
# 1. its tests again; 2. fam13 channels-last auto against one_tap, bf16 / TF32 / exact fp32; 3. verified fam13 rows
# under TCONV_ONE_TAP_AUTO=1 (bf16 and TF32 channels-last); 4. ncu of the kernel.
source scripts/device_prelude.sh
left 150 && gpu_tests 200 one_tap tests/test_conv_transpose_gpu.py "one_tap"
stem=fam13_convt2d_k3_s5_p1_d2_64x128
for prec in bf16 tf32 fp32; do
  for algo in auto one_tap; do
    left 330 && LAYOUT=channels_last quick_time cl $stem $prec $algo
  done
done | tee "$LOG/fam13_one_tap.log"
TCONV_ONE_TAP_AUTO=1 bench_budget 400 bf16 channels_last $stem
mv "$LOG/bench_channels_last.log" "$LOG/bench_channels_last_bf16.log" 2>/dev/null
TCONV_ONE_TAP_AUTO=1 bench_budget 470 tf32 channels_last $stem
left 520 && TCONV_ONE_TAP_AUTO=1 timeout 60 ncu --clock-control none -k "regex:tconv_one_tap" --launch-skip 0 \
  --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
  python3 scripts/quick_timing.py $stem --precision bf16 --layout channels_last --runs 1 --warmup 1 \
  > "$LOG/ncu_fam13_one_tap.txt" 2>&1
grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|Grid Size" \
  "$LOG/ncu_fam13_one_tap.txt" | head -8
device_finish
