#!/usr/bin/env bash
# Session 63, run 386 (one H200): the unit-stride forward's ring fill (run 385's source profile of fam04: 16.6 % of
# the samples in the fill, long-scoreboard waits on the first stages' x loads).
# 1. Tests with both new switches on (TCONV_UNIT_STRIDE_ISSUE_FIRST=1: the stage's wgmmas before the store of a later
#    stage's registers; TCONV_UNIT_STRIDE_PREFETCH=1: L2 prefetch of the x rows of the block one wave on): the
#    unit-stride forward / grad_input grids; the fused block's concurrent backward test (fixed: the block's norm
#    parameters listed explicitly).
# 2. A/B, in alternating processes: unit_stride_fixed_cost.py (fam04, fam01, fam06 at four C_in) and L2-61 (TF32,
#    bf16) under each of the four settings.
# Each later step only while the call has time left. Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
TCONV_UNIT_STRIDE_ISSUE_FIRST=1 TCONV_UNIT_STRIDE_PREFETCH=1 timeout 150 python3 -m pytest -q \
  tests/test_conv_transpose_gpu.py tests/test_fused_gpu.py -k \
  "strip_unit_stride or unit_stride_tap_pairs or unit_stride_x_pairs or fused_backward_runs" 2>&1 | tail -4 \
  | tee "$LOG/pytest_fill.log"
echo "== A/B at $(( $(date +%s) - start )) s"
for setting in 0:0 1:0 0:1 1:1; do
  IFS=: read -r first prefetch <<< "$setting"
  left 500 && (cd scripts && TCONV_UNIT_STRIDE_ISSUE_FIRST=$first TCONV_UNIT_STRIDE_PREFETCH=$prefetch timeout 60 \
    python3 unit_stride_fixed_cost.py --runs 10 --json "$LOG/fixed_cost_${first}_${prefetch}.json" 2>&1 \
    | grep -v Warn | sed "s/^/FIRST=$first PREFETCH=$prefetch /") | tee -a "$LOG/fixed_cost.log"
  left 530 && (cd scripts && TCONV_UNIT_STRIDE_ISSUE_FIRST=$first TCONV_UNIT_STRIDE_PREFETCH=$prefetch timeout 30 \
    python3 quick_timing.py l2_61_convt3d_relu_groupnorm --precision tf32 bf16 --runs 20 --warmup 3 \
    --json "$LOG/l2_61_${first}_${prefetch}.json" 2>&1 | grep -v Warn | sed "s/^/FIRST=$first PREFETCH=$prefetch /") \
    | tee -a "$LOG/timing_l2_61.log"
done
device_finish
