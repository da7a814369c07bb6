#!/usr/bin/env bash
# Session 63, run 385 (one H200).
# 1. The fused block's backward (L2-61) now takes the conv's concurrent path in plain eager calls: its test, the conv's
#    concurrent test, the fused end-to-end tests; A/B of L2-61 fwd+bwd with TCONV_CONCURRENT_BACKWARD=1 / 0 (TF32 and
#    bf16, alternating processes, two rounds).
# 2. Prepared in session 62: warp-stall breakdowns of HiFi-GAN's TF32 strip grad_weight (3.80 ms; neither L2 nor
#    shared memory is its limit) and of fam04's / fam01's unit-stride forwards (forced igemm_strip: about half and a
#    third of their time is paid once per tile, run 382).
# 3. fam04's unit-stride forward per SASS instruction (ncu source page): where the per-tile cost sits.
# Each later step only while the call has time left. Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 150 python3 -m pytest -q tests/test_fused_gpu.py tests/test_conv_transpose_gpu.py -k \
  "concurrent or end_to_end or conv_store" 2>&1 | tail -3 | tee "$LOG/pytest_fused_concurrent.log"
echo "== A/B at $(( $(date +%s) - start )) s"
left 300 && (cd scripts && for round in 1 2; do for value in 1 0; do
  TCONV_CONCURRENT_BACKWARD=$value timeout 40 python3 quick_timing.py l2_61_convt3d_relu_groupnorm \
    --precision tf32 bf16 --runs 20 --warmup 3 --json "$LOG/l2_61_concurrent_${value}_${round}.json" 2>&1 \
    | grep -v Warn | sed "s/^/CONCURRENT=$value /"
done; done) | tee "$LOG/timing_l2_61_concurrent.log"
echo "== ncu stalls at $(( $(date +%s) - start )) s"
left 380 && OUT="$LOG" KERNEL=unit_stride_forward CASES="fam04_tf32:fam04_convt1d_k3_65536:tf32:igemm_strip \
fam01_tf32:fam01_convt2d_k3_1024x1024:tf32:igemm_strip" timeout 130 bash scripts/ncu_stalls.sh 2>&1 \
  | tee "$LOG/ncu_unit_stride.log"
left 450 && OUT="$LOG" KERNEL=strip_grad_weight CASES="hifigan_tf32:real_hifigan_up:tf32" timeout 80 \
  bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_strip_grad_weight.log"
echo "== ncu source at $(( $(date +%s) - start )) s"
left 510 && OUT="$LOG" KERNEL=unit_stride_forward CASES="fam04_tf32:fam04_convt1d_k3_65536:tf32:igemm_strip" \
  timeout 75 bash scripts/ncu_source.sh 2>&1 | tee "$LOG/ncu_source.log"
gzip -f "$LOG"/src_*.csv 2>/dev/null
device_finish
