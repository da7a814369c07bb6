#!/usr/bin/env bash
# Session 85, run 467 (one H200; the session's first device call, prepared in session 84).
# Session 84 (runs 464-466) moved the strided channels-last 16-bit forwards onto loads and stores along the channels
# (fam13 0.586, fam10 0.595, fam09 0.723 ms) and then put the grouped grad_weight back on its element copies (the
# segment staging measured 1.992 ms there against 1.425): fam09's fwd+bwd with that code is not measured (~2.65 ms
# expected), and fam07's channels-last row ran out of run 466's budget.
# 0. GPU tests of the grouped grad_weight as committed (its element-copy staging is back; not run on 7fd3c91);
# 1. kernel breakdowns (channels-last bf16) of the problems still far below eager: fam01, fam06 (64-channel wide
#    lines), fam02 (its backward), L1-71 (its forward);
# 2. verified channels-last bf16 rows: fam09 (the committed code), fam07, fam06, fam02, while the call has time.
source scripts/device_prelude.sh
left 300 && gpu_tests 45 grouped_gw tests/test_conv_transpose_gpu.py \
  "grouped_mma_grad_weight or (grouped_grad_weight_grid and channels_last)"
for problem in fam01_convt2d_k3_1024x1024 fam06_convt2d_k3x5_128x256 fam02_convt3d_k3x5x7_16x32x64 \
    l1_71_convt2d_asym_input_square_kernel; do
  left 420 && timeout 40 python3 scripts/kernel_breakdown.py "$problem" --precision bf16 --layout channels_last \
    --iters 2 2>&1 | grep -v Warn >> "$LOG/breakdown.log"
done
grep -A4 "^==" "$LOG/breakdown.log" | cut -c1-150
budget=$(( 550 - ($(date +%s) - start) ))
[ "$budget" -gt 30 ] && timeout $(( budget + 40 )) python3 -m tconv bench fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 \
  fam07_convt3d_k3_96x96x96 fam06_convt2d_k3x5_128x256 fam02_convt3d_k3x5x7_16x32x64 \
  --precision bf16 --layout channels_last --no-compile --runs 20 --warmup 3 --time-budget "$budget" --out "$OUT" 2>&1 \
  | grep -vE "^\s*$" | tee "$LOG/bench_channels_last.log" | grep -v "^chart\|^results\|^resume"
find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
rm -f "$OUT"/*.png
device_finish
