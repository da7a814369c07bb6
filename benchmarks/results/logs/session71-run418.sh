#!/usr/bin/env bash
# Session 71, run 418 (one H200; the last ~400 s of the session's device time, so a short call): whether the
# turn-buffer rule moved 16-bit rows beyond fam02: quick_timing fam05 and fam06 bf16, rule / TURN_BUFFERS=0,
# with each distinct plan-log line counted. Pass TCONV_COMMIT=<literal sha>.
source scripts/device_prelude.sh
for turns in "" 0; do
  left 330 && (cd scripts && TCONV_GRAD_WEIGHT_BALANCE=log TCONV_GRAD_WEIGHT_TURN_BUFFERS=$turns timeout 30 \
    python3 quick_timing.py fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256 --precision bf16 --runs 6 \
    --warmup 2 --json "$LOG/t_${turns:-rule}.json" > "$LOG/t_${turns:-rule}.out" 2> "$LOG/t_${turns:-rule}.err")
  sed "s/^/TURNS=${turns:-rule} /" "$LOG/t_${turns:-rule}.out" 2>/dev/null | grep -v Warn
  grep "grad_weight plan" "$LOG/t_${turns:-rule}.err" 2>/dev/null | sort | uniq -c | cut -c1-150
done
device_finish
