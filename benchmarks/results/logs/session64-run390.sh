#!/usr/bin/env bash
# Session 64, run 390 (one H200): after run 389,
# - the half tile is "auto"'s choice for fp32 weights-as-A tiles of 64 channels at K = C_in x taps <= 1152
#   (StripUnitStrideHalfTileRule; its 128-channel kernels removed: they lost);
# - a grad_input on the persistent unit_stride_mma grid keeps the backward's passes one after the other (fam08:
#   3.495 ms concurrent against 2.959).
# 1. Tests: unit-stride grids and the half-tile rule, the concurrent backward (conv and fused block).
# 2. concurrent_ab.py --persistent on the rows whose grad_input is unit_stride_mma (fam08 TF32 and bf16, fam11,
#    fam02, L1-71): the new default, off, and concurrent beside the persistent grid.
# 3. Verified bench rows (TF32): fam01 (the half tile's row), fam08, fam11, L1-71, fam05 while the call has time.
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 120 python3 -m pytest -q tests/test_conv_transpose_gpu.py tests/test_fused_gpu.py -k \
  "strip_unit_stride or unit_stride_half_tile or unit_stride_tap_pairs or unit_stride_x_pairs or concurrent_backward \
or persistent_grad_input or fused_backward_runs" 2>&1 | tail -4 | tee "$LOG/pytest.log"
echo "== concurrent A/B at $(( $(date +%s) - start )) s"
for precision in tf32 bf16; do
  left 330 && (cd scripts && timeout 70 python3 concurrent_ab.py fam08_convt1d_k5_d3_131072 \
    $([ $precision = tf32 ] && echo fam11_convt2d_k3x7_p1x3_512x1024 fam02_convt3d_k3x5x7_16x32x64 \
    l1_71_convt2d_asym_input_square_kernel) --precision $precision --rounds 2 --runs 10 --persistent 2>&1 \
    | grep -v Warn) | tee -a "$LOG/concurrent_ab.log"
done
echo "== bench at $(( $(date +%s) - start )) s"
for row in fam01_convt2d_k3_1024x1024:tf32:60 fam08_convt1d_k5_d3_131072:tf32:40 \
    fam11_convt2d_k3x7_p1x3_512x1024:tf32:45 l1_71_convt2d_asym_input_square_kernel:tf32:40 \
    fam05_convt2d_k3x7_512x512:tf32:50; do
  IFS=: read -r stem precision limit <<< "$row"
  left $(( 560 - limit )) && timeout "$limit" python3 -m tconv bench "$stem" --precision "$precision" --no-compile \
    --runs 20 --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee -a "$LOG/bench.log" | grep -v "^chart\|^results"
done
rm -f "$OUT"/*.png
device_finish
