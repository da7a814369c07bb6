#!/usr/bin/env bash
# Session 72, run 419 (one H200), prepared in session 71 as next-session-first-run.sh; run at the commit that adds
# this name, passed as TCONV_COMMIT.
# 1. tests/test_grad_weight_ordered_gpu.py (exact fp32 on fam02's long sums now judged by the harness's rule,
#    fp32_violations; not run since 249570a).
# 2. Verified bf16 rows below 1.0x eager in the suite estimate: fam05 (0.96x fwd+bwd at a96b82f, Nov 27; quick timing
#    3.62 ms in run 418 against that row's 3.80), HiFi-GAN (0.69x), DCGAN (0.69x / 0.81x).
# 3. Kernel census of HiFi-GAN and DCGAN bf16 fwd+bwd, ours and the original under cuDNN-benchmark (the last were runs
#    362-364: which pass trails now).
source scripts/device_prelude.sh
left 400 && timeout 60 python3 -m pytest -q -p no:cacheprovider tests/test_grad_weight_ordered_gpu.py --tb=short \
  > "$LOG/pytest_ordered.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_ordered.log" | tail -8
bench_rows 470 fam05_convt2d_k3x7_512x512:bf16:60 real_hifigan_up:bf16:60 real_dcgan_up:bf16:50
for model in new original; do
  extra=""; [ $model = original ] && extra="--cudnn-benchmark"
  left 540 && (cd scripts && timeout 30 python3 kernel_breakdown.py real_hifigan_up real_dcgan_up --precision bf16 \
    --iters 3 --model $model $extra --json "$LOG/census_$model.json" 2>&1 | grep -v Warn) > "$LOG/census_$model.log"
  [ -f "$LOG/census_$model.log" ] && head -40 "$LOG/census_$model.log" | cut -c1-150
done
device_finish
