#!/usr/bin/env bash
# Session 85, run 469 (one H200): the 16-bit TMA window on wide lines of 64+ source channels where a phase has five
# or more W taps (TmaWindow16BitAutoRule::kMinWideLineWTaps; TCONV_TMA_WINDOW_WIDE=0 refuses them as before). The
# refusal was set from fam01 (3 W taps: window 2.835 ms against the per-tap boxes' 2.678, run 458); fam06 (k3x5,
# 64 -> 128) and fam05 (k3x7, 64 -> 64) were never timed on it. Prediction: their channels-last bf16 forwards
# (1.714 and 1.126 ms on the per-tap boxes) fall by 20-40 % with the A boxes' L2 traffic cut 5-7x; fam01 unchanged.
# 1. GPU tests: the unit-stride channels-last tests again (run 468: its batch-0 case failed; the plan now takes an
#    empty batch in any layout), every 16-bit window test (its contract on each case, what runs, the rule's switches, the new one);
# 2. quick timings, channels-last bf16: fam06, fam05 under "auto" against TCONV_TMA_WINDOW_WIDE=0;
# 3. verified channels-last bf16 rows: fam06, fam05, while the call has time.
source scripts/device_prelude.sh
left 300 && gpu_tests 30 unit_stride_cl tests/test_conv_transpose_gpu.py \
  "unit_stride_mma_channels_last or unit_stride_mma_where_planned or unit_stride_mma_runs_and_refuses"
left 340 && gpu_tests 80 window tests/test_gather_tma_gpu.py "window_16bit"
for problem in fam06_convt2d_k3x5_128x256 fam05_convt2d_k3x7_512x512; do
  left 420 && LAYOUT=channels_last quick_time "wide" "$problem" bf16 auto | tee -a "$LOG/timing.log"
  left 430 && LAYOUT=channels_last quick_time "refused" "$problem" bf16 auto TCONV_TMA_WINDOW_WIDE=0 | tee -a "$LOG/timing.log"
done
budget=$(( 520 - ($(date +%s) - start) ))
[ "$budget" -gt 30 ] && timeout $(( budget + 40 )) python3 -m tconv bench fam06_convt2d_k3x5_128x256 \
  fam05_convt2d_k3x7_512x512 \
  --precision bf16 --layout channels_last --no-compile --runs 20 --warmup 3 --time-budget "$budget" --out "$OUT" 2>&1 \
  | grep -vE "^\s*$" | tee "$LOG/bench_channels_last.log" | grep -v "^chart\|^results\|^resume"
find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
rm -f "$OUT"/*.png
device_finish
