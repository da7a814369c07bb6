#!/usr/bin/env bash
# Session 85, run 468 (one H200): the unit-stride mma.sync kernel's channels-last form (16-bit data: each input
# position's 32 channels copied whole into the MMAs' layout, stores along the channels), which "auto" now asks
# before the TMA window, for the forward and (as the forward of grad_output) grad_input at <= 32 channels a side.
# Prediction: L1-71 channels-last bf16 forward near the contiguous form's 0.327 ms (run 466: 0.748 on the window),
# fwd+bwd ~1.1 ms (1.830: the window forward + grad_input 1.390 of it); fam11 forward near its contiguous 0.585
# (0.952).
# 1. GPU tests: every unit_stride_mma test but the grad_weight ones (the new channels-last grid, its stores, the
#    refusals and "auto"'s plan), then every channels_last case of the GPU file (the routing under "auto");
# 2. quick timings, channels-last bf16: L1-71 and fam11 under "auto" against TCONV_UNIT_STRIDE_MMA=0 (the old
#    route, same build); the contiguous L1-71 (the W-contiguous form, unchanged code but for its template);
#    fam01 / fam05 (64 channels a side, outside the rule) forced onto "unit_stride_mma";
# 3. verified channels-last bf16 rows: L1-71, fam11, while the call has time.
source scripts/device_prelude.sh
left 300 && gpu_tests 60 unit_stride tests/test_conv_transpose_gpu.py "unit_stride_mma and not grad_weight"
left 370 && gpu_tests 50 channels_last tests/test_conv_transpose_gpu.py "channels_last and not forced_igemm"
for problem in l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024; do
  left 420 && LAYOUT=channels_last quick_time "new" "$problem" bf16 auto | tee -a "$LOG/timing.log"
  left 430 && LAYOUT=channels_last quick_time "old" "$problem" bf16 auto TCONV_UNIT_STRIDE_MMA=0 | tee -a "$LOG/timing.log"
done
left 440 && quick_time "contiguous" l1_71_convt2d_asym_input_square_kernel bf16 auto | tee -a "$LOG/timing.log"
for problem in fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512; do
  left 440 && LAYOUT=channels_last quick_time "forced" "$problem" bf16 unit_stride_mma | tee -a "$LOG/timing.log"
done
budget=$(( 550 - ($(date +%s) - start) ))
[ "$budget" -gt 30 ] && timeout $(( budget + 40 )) python3 -m tconv bench l1_71_convt2d_asym_input_square_kernel \
  fam11_convt2d_k3x7_p1x3_512x1024 \
  --precision bf16 --layout channels_last --no-compile --runs 20 --warmup 3 --time-budget "$budget" --out "$OUT" 2>&1 \
  | grep -vE "^\s*$" | tee "$LOG/bench_channels_last.log" | grep -v "^chart\|^results\|^resume"
find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
rm -f "$OUT"/*.png
device_finish
