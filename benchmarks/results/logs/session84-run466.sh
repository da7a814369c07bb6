#!/usr/bin/env bash
# Session 84, run 466 (one H200; the session's last device call): run 465's channels-last changes, mended.
# Run 465 (9a97d68): channels-last bf16 forwards fam13 3.046 -> 0.803 ms, fam10 2.235 -> 0.735, fam09 3.110 -> 0.754
# (verified), but fam09's grouped grad_weight 1.425 -> 4.145 ms: the lines staging gave a warp per staged line, and
# its tiles stage one or two grad_output lines (now segments of 128 elements dealt to every warp). The gathers'
# [M][N] epilogue now decodes each row once (a shared-memory table) instead of in every lane storing it.
# 1. GPU tests: the lines kernel's and the grouped grad_weight's cases (run 465's ran past its 60 s limit at ~62 %,
#    no failure), the channels-last grouped grad_weight grid, every 16-bit forced-igemm grid case, channels-last
#    grads in 16 bits;
# 2. breakdowns (channels-last bf16) of fam09 and fam13;
# 3. verified channels-last bf16 rows: fam09, fam13, then the five problems whose backward took the window
#    grad_weight in session 83 (L1-71, fam11, fam05, fam01, fam07: quick timings only so far), then fam10, while the
#    call has time.
source scripts/device_prelude.sh
left 300 && gpu_tests 120 lines tests/test_conv_transpose_gpu.py \
  "grouped_mma_lines or grouped_mma_grad_weight or (grouped_grad_weight_grid and channels_last)"
left 390 && gpu_tests 40 forced16 tests/test_conv_transpose_gpu.py "forced_igemm and (bf16 or fp16)"
left 410 && gpu_tests 30 cl_grads tests/test_conv_transpose_gpu.py "channels_last_grads and (bf16 or fp16)"
for problem in fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 fam13_convt2d_k3_s5_p1_d2_64x128; do
  left 450 && timeout 30 python3 scripts/kernel_breakdown.py "$problem" --precision bf16 --layout channels_last \
    --iters 2 2>&1 | grep -v Warn >> "$LOG/breakdown.log"
done
grep -A3 "^==" "$LOG/breakdown.log" | cut -c1-150
budget=$(( 550 - ($(date +%s) - start) ))
[ "$budget" -gt 30 ] && timeout $(( budget + 40 )) python3 -m tconv bench fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 \
  fam13_convt2d_k3_s5_p1_d2_64x128 l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024 \
  fam05_convt2d_k3x7_512x512 fam01_convt2d_k3_1024x1024 fam10_convt3d_k3_s2_p1_d2_16x32x32 fam07_convt3d_k3_96x96x96 \
  --precision bf16 --layout channels_last --no-compile --runs 20 --warmup 3 --time-budget "$budget" --out "$OUT" 2>&1 \
  | grep -vE "^\s*$" | tee "$LOG/bench_channels_last.log" | grep -v "^chart\|^results\|^resume"
find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
rm -f "$OUT"/*.png
device_finish
