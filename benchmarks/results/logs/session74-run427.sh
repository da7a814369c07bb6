#!/usr/bin/env bash
# Session 74, run 427 (one H200; the session's first device call). Run at the commit that adds this name, passed as
# TCONV_COMMIT.
# 1. The warp-specialized wgmma unit-stride grad_weight (TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED=1, written in session
#    73 without a GPU: three MMA warpgroups that only wait for a slot, issue, wait and release it; a producer
#    warpgroup with 56 registers (setmaxnreg) that copies, transposes and publishes through named barriers): its test
#    against float64 (both switch values, each in its own process), then fam05 bf16 quick timing against the plain
#    form (run 425's, 3.07 ms fwd+bwd) and the overlap form, two rounds. Predicted: the grad_weight kernel from 1.38
#    toward ~0.8-1.0 ms (tensor pipe 31 % -> 50-60 %), fwd+bwd ~2.5-2.7 ms. If the test fails: a hang shows as the
#    pytest timeout (named barrier counts: 512 = 384 waiting + 128 arriving), wrong values as check_close errors.
# 2. ncu of the specialized kernel on fam05 (tensor pipe, stalls), serial census of fam05 bf16 under it.
# 3. fam11 (21 taps, C_out 32: the rule leaves it to mma.sync, 2.041 against 2.118 ms on the plain form) forced onto
#    the specialized form (it takes only calls of more than 15 taps, the 7-tap warpgroups).
source scripts/device_prelude.sh
left 330 && timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "unit_stride_wgmma_grad_weight" > "$LOG/pytest_specialized.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_specialized.log" | cut -c1-300 | tail -10
for round in 1 2; do
  for form in specialized plain overlap; do
    spec=0; over=0; [ $form = specialized ] && spec=1; [ $form = overlap ] && over=1
    left 420 && (cd scripts && TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED=$spec TCONV_UNIT_STRIDE_WGMMA_OVERLAP=$over \
      timeout 20 python3 quick_timing.py fam05_convt2d_k3x7_512x512 --precision bf16 --runs 10 --warmup 2 \
      --json "$LOG/t_r${round}_$form.json" 2>&1 | grep -v Warn | sed "s/^/$form /")
  done
done | tee "$LOG/timing.log"
left 450 && (cd scripts && TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED=1 TCONV_CONCURRENT_BACKWARD=0 timeout 30 python3 \
  kernel_breakdown.py fam05_convt2d_k3x7_512x512 --precision bf16 --iters 3 --json "$LOG/census_fam05.json" 2>&1 \
  | grep -v Warn) > "$LOG/census_fam05.log"
[ -f "$LOG/census_fam05.log" ] && grep -A5 "^==" "$LOG/census_fam05.log" | cut -c1-150
left 480 && TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED=1 OUT="$LOG" KERNEL=wgmma_grad_weight_specialized \
  CASES="fam05_bf16_specialized:fam05_convt2d_k3x7_512x512:bf16" timeout 70 bash scripts/ncu_stalls.sh 2>&1 | tail -22
for problem in fam11_convt2d_k3x7_p1x3_512x1024; do
  left 560 && (cd scripts && TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=1 TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED=1 timeout 20 \
    python3 quick_timing.py $problem --precision bf16 --runs 10 --warmup 2 2>&1 | grep -v Warn | sed "s/^/forced /")
done | tee -a "$LOG/timing.log"
device_finish
