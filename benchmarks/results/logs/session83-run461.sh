#!/usr/bin/env bash
# Session 83, run 461 (one H200), prepared in sessions 81-82 as next-session-second-run.sh; at a commit with
# TmaWindowShortTile on by default (run 460). Called as `TCONV_COMMIT=<full sha> bash <this script>`.
# Issue 4's 16-bit target (>= 1.5x eager forward, geomean) names contiguous and channels-last inputs; channels-last
# bf16 has verified rows for 8 of the 18 4-D/5-D problems (runs 456, 459: geomean 1.13x / 0.71x). This call: the other
# 10 under the defaults of the commit it runs (one process; each row lands in the JSON as it completes; the time
# budget stops it between rows; rows take ~45-60 s, so two calls may be needed).
source scripts/device_prelude.sh
budget=$(( 530 - ($(date +%s) - start) ))
[ "$budget" -gt 30 ] && timeout $(( budget + 45 )) python3 -m tconv bench fam07_convt3d_k3_96x96x96 \
  fam02_convt3d_k3x5x7_16x32x64 l1_68_convt3d_square_input_asym_kernel fam06_convt2d_k3x5_128x256 \
  fam01_convt2d_k3_1024x1024 l1_73_convt3d_strided_padded_grouped l1_72_convt3d_asym_kernel_strided_padded_grouped \
  fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 fam10_convt3d_k3_s2_p1_d2_16x32x32 fam13_convt2d_k3_s5_p1_d2_64x128 \
  --precision bf16 --layout channels_last --no-compile --runs 20 --warmup 3 --time-budget "$budget" --out "$OUT" 2>&1 \
  | grep -vE "^\s*$" | tee "$LOG/bench_channels_last.log" | grep -v "^chart\|^results\|^resume"
find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
rm -f "$OUT"/*.png
device_finish
