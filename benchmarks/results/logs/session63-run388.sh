#!/usr/bin/env bash
# Session 63, run 388 (one H200): the 1D strip forward and the strip grad_input (HiFi-GAN's passes) issue their
# wgmmas before a later stage's store too (run_strip_pipeline's kIssueFirst, as the unit-stride forward in run 387).
# 1. Tests: the strip and unit-stride grids, the concurrent backward (conv and fused block).
# 2. Verified bench rows (TF32): HiFi-GAN (run 382: 7.847 ms fwd+bwd), then the stride-1 rows run 387 had no time
#    for (fam04, L1-71, fam08), one `tconv bench` call per row while the call has time left. Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 110 python3 -m pytest -q tests/test_conv_transpose_gpu.py tests/test_fused_gpu.py -k \
  "strip or unit_stride or concurrent_backward or fused_backward_runs" 2>&1 | tail -4 | tee "$LOG/pytest_strip.log"
echo "== bench at $(( $(date +%s) - start )) s"
for row in real_hifigan_up:tf32:50 fam04_convt1d_k3_65536:tf32:110 l1_71_convt2d_asym_input_square_kernel:tf32:40 \
    fam08_convt1d_k5_d3_131072:tf32:40; do
  IFS=: read -r stem precision limit <<< "$row"
  left $(( 455 - limit )) && timeout "$limit" python3 -m tconv bench "$stem" --precision "$precision" --no-compile \
    --runs 20 --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee -a "$LOG/bench.log" | grep -v "^chart\|^results"
done
rm -f "$OUT"/*.png
device_finish
