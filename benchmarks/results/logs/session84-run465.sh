#!/usr/bin/env bash
# Session 84, run 465 (one H200): the channels-last epilogue of the cp.async gathers ([M][N] staging, stores along the
# channels), their 16-bit A loads along the channels (PairedRows::fetch_adjacent), and the grouped lines kernel's
# channels-last staging and store. Run 464's channels-last bf16 breakdowns (ms): fam13's forward 3.030 (cp.async
# gather, one 2-byte store per sector), fam09's 3.125 (lines kernel), fam10's 2.235 (run 461, whole forward).
# 1. GPU tests: every 16-bit forced-igemm grid case (channels-last there), the lines kernel's and the grouped
#    grad_weight's cases (channels-last among them), then every channels-last case of the file;
# 2. kernel breakdowns (channels-last bf16) of fam13, fam10, fam09;
# 3. verified channels-last bf16 rows of fam13, fam10, fam09 (run 461: fwd 3.046 / 2.235 / 3.110 ms).
source scripts/device_prelude.sh
left 300 && gpu_tests 90 forced16 tests/test_conv_transpose_gpu.py "forced_igemm and (bf16 or fp16)"
left 340 && gpu_tests 60 lines tests/test_conv_transpose_gpu.py "grouped_mma_lines or grouped_mma_grad_weight"
left 360 && gpu_tests 100 channels_last tests/test_conv_transpose_gpu.py "channels_last and not forced_igemm"
for problem in fam13_convt2d_k3_s5_p1_d2_64x128 fam10_convt3d_k3_s2_p1_d2_16x32x32 \
    fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256; do
  left 480 && timeout 30 python3 scripts/kernel_breakdown.py "$problem" --precision bf16 --layout channels_last \
    --iters 2 2>&1 | grep -v Warn >> "$LOG/breakdown.log"
done
grep -A3 "^==" "$LOG/breakdown.log" | cut -c1-150
budget=$(( 545 - ($(date +%s) - start) ))
[ "$budget" -gt 30 ] && timeout $(( budget + 45 )) python3 -m tconv bench fam13_convt2d_k3_s5_p1_d2_64x128 \
  fam10_convt3d_k3_s2_p1_d2_16x32x32 fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 \
  --precision bf16 --layout channels_last --no-compile --runs 20 --warmup 3 --time-budget "$budget" --out "$OUT" 2>&1 \
  | grep -vE "^\s*$" | tee "$LOG/bench_channels_last.log" | grep -v "^chart\|^results\|^resume"
find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
rm -f "$OUT"/*.png
device_finish
