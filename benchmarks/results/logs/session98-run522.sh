#!/usr/bin/env bash
# Session 98, run 522 (one H200, cold). Run as TCONV_COMMIT=<sha> bash benchmarks/results/logs/session98-run522.sh
# The one-tap forward (conv_transpose_one_tap.cu, new; "one_tap" forces it, TCONV_ONE_TAP_AUTO=1 lets "auto" take it):
# every output receives at most one tap (fam13: k3 s5 d2), so a block stages its input positions once and writes
# its output run once, the bias where no tap lands. Run 521's ncu read fam13's bf16 channels-last forward on the
# mma.sync gather at 0.492 ms, DRAM 17 %, occupancy 24 %. Predicted: ~0.15-0.2 ms (FFMA 2.4 G at ~60 % of peak
# ~0.14 ms, overlapped with 415 MB of stores ~0.11 ms).
# 1. its tests (contract on 7 cases x 4 modes x 3 layouts, launches and refusals, the random sweep's one-tap cases);
# 2. fam13 forward and fwd+bwd, auto against one_tap: bf16 and TF32 channels-last, bf16 and TF32 contiguous, exact fp32
#    channels-last;
# 3. ncu of the one-tap kernel on fam13 bf16 channels-last.
source scripts/device_prelude.sh
left 150 && gpu_tests 200 one_tap tests/test_conv_transpose_gpu.py "one_tap"
stem=fam13_convt2d_k3_s5_p1_d2_64x128
for prec in bf16 tf32 fp32; do
  for algo in auto one_tap; do
    left 420 && LAYOUT=channels_last quick_time cl $stem $prec $algo
  done
done | tee "$LOG/fam13_one_tap.log"
for prec in bf16 tf32; do
  for algo in auto one_tap; do
    left 460 && quick_time contiguous $stem $prec $algo
  done
done | tee -a "$LOG/fam13_one_tap.log"
left 530 && TCONV_ONE_TAP_AUTO=1 timeout 60 ncu --clock-control none -k "regex:tconv_one_tap" --launch-skip 0 \
  --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
  python3 scripts/quick_timing.py $stem --precision bf16 --layout channels_last --runs 1 --warmup 1 \
  > "$LOG/ncu_fam13_one_tap.txt" 2>&1
grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|Grid Size" \
  "$LOG/ncu_fam13_one_tap.txt" | head -8
device_finish
