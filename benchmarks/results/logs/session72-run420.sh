#!/usr/bin/env bash
# Session 72, run 420 (one H200), from session 71's prepared second call (its third part, the bf16 3D rows under the
# turn-buffer rule against mode 2, left out for time). Run at the commit that adds this name, passed as TCONV_COMMIT.
# 1. test_gather_widest_gpu.py, not finished on a GPU since session 67's swap rule (>100 s).
# 2. L2-61 TF32 and bf16 verified rows (issue 5) at the current defaults (last: 1.268 / 4.573 TF32, run 402).
# 3. DCGAN bf16: run 419's bench row had fwd+bwd 1.089 ms (p20-p80 1.01-1.165) against 0.821 at af9a87d and 0.846 in
#    run 416's quick timing of the same kernels. Quick timing as is, with the passes one after the other
#    (TCONV_CONCURRENT_BACKWARD=0) and in one turn buffer; the serial census of DCGAN and HiFi-GAN bf16 (run 419's ran
#    the passes at once, so its kernel times overlap); a second bench row.
source scripts/device_prelude.sh
left 400 && timeout 130 python3 -m pytest -q -p no:cacheprovider tests/test_gather_widest_gpu.py --tb=short \
  > "$LOG/pytest_widest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_widest.log" | tail -8
for form in default CONCURRENT_BACKWARD=0 GRAD_WEIGHT_TURN_BUFFERS=0; do
  switch=""; [ $form != default ] && switch="TCONV_$form"
  left 540 && (cd scripts && env $switch timeout 40 python3 quick_timing.py real_dcgan_up --precision bf16 tf32 \
    --runs 20 --warmup 3 --json "$LOG/t_dcgan_$form.json" 2>&1 | grep -v Warn | sed "s/^/$form /")
done | tee "$LOG/timing_dcgan.log"
left 520 && (cd scripts && TCONV_CONCURRENT_BACKWARD=0 timeout 40 python3 kernel_breakdown.py real_dcgan_up \
  real_hifigan_up --precision bf16 --iters 3 --json "$LOG/census_serial.json" 2>&1 | grep -v Warn) \
  > "$LOG/census_serial.log"
[ -f "$LOG/census_serial.log" ] && grep -A8 "^==" "$LOG/census_serial.log" | cut -c1-150
bench_rows 575 real_dcgan_up:bf16:50 l2_61_convt3d_relu_groupnorm:tf32:50 l2_61_convt3d_relu_groupnorm:bf16:50
device_finish
