#!/usr/bin/env bash
# Session 84, run 466 (one H200): prepared in session 83 as the next session's second GPU call.
# Run 464 passed the window grad_weight's torch-level tests (bf16, fp16, the 64-channel rule).
# Verified channels-last bf16 rows of the five problems whose backward moved to the window grad_weight in session 83
# (run 462's quick timings, fwd+bwd ms: L1-71 1.826, fam11 2.718, fam07 13.219, fam05 3.818, fam01 7.850), after the
# first call's tests pass. One process; rows land in the JSON as they complete; the time budget stops it between rows.
source scripts/device_prelude.sh
budget=$(( 530 - ($(date +%s) - start) ))
[ "$budget" -gt 30 ] && timeout $(( budget + 45 )) python3 -m tconv bench l1_71_convt2d_asym_input_square_kernel \
  fam11_convt2d_k3x7_p1x3_512x1024 fam05_convt2d_k3x7_512x512 fam01_convt2d_k3_1024x1024 fam07_convt3d_k3_96x96x96 \
  --precision bf16 --layout channels_last --no-compile --runs 20 --warmup 3 --time-budget "$budget" --out "$OUT" 2>&1 \
  | grep -vE "^\s*$" | tee "$LOG/bench_channels_last.log" | grep -v "^chart\|^results\|^resume"
find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
rm -f "$OUT"/*.png
device_finish
