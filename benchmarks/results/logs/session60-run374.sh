#!/usr/bin/env bash
# Session 60, run 374 (one H200). The W-tap window's new bound (igemm_config.h, kWindowSpan2MinChannels: W-strided
# forwards with three W taps at consecutive shifts keep the window only from 128 input channels; run 372's sweep).
# Its kernel-choice test and the window and autotune tests; a same-build A/B of TCONV_WINDOW_SPAN2_MIN_CHANNELS (0 =
# the rule before) on fam10 and fam12 in TF32 and bf16; fam13's TF32 forward with the 256-column gather tile off
# (TCONV_GATHER_WIDEST=0) against "auto" and the mma.sync tile (run 372: 0.663 ms on mma.sync against 0.797); then
# the verified bench rows of fam10, fam12 and DCGAN (TF32 and bf16). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
timeout 150 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k "window or autotune" 2>&1 | tail -4 \
  | tee "$LOG/pytest_window.log"
echo "== A/B at $(( $(date +%s) - start )) s"
OUT="$LOG" SWITCH=TCONV_WINDOW_SPAN2_MIN_CHANNELS VALUES="128 0" ROUNDS=2 PRECISIONS="tf32 bf16" timeout 150 \
  bash scripts/device_switch_ab.sh fam10_convt3d_k3_s2_p1_d2_16x32x32 fam12_convt1d_k3_s2_p1_d2_131072 2>&1 \
  | grep -v Warn | tee "$LOG/timing_window.log"
echo "== fam13 at $(( $(date +%s) - start )) s"
(cd scripts
 for widest in 1 0; do
   TCONV_GATHER_WIDEST=$widest timeout 40 python3 gather_rule_sweep.py --precision tf32 --runs 20 \
     --only fam13_k3s5d2_c32 2>&1 | grep -v Warn | sed "s/^/WIDEST=$widest /"
 done) 2>&1 | tee "$LOG/fam13.log"
echo "== bench at $(( $(date +%s) - start )) s"
for precision in tf32 bf16; do
  timeout 120 python3 -m tconv bench fam10_convt3d_k3_s2_p1_d2_16x32x32 fam12_convt1d_k3_s2_p1_d2_131072 \
    --precision $precision --no-compile --runs 20 --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" \
    | tee "$LOG/bench_$precision.log" | grep -v "^chart\|^results"
done
rm -f "$OUT"/*.png
device_finish
