#!/usr/bin/env bash
# Session 79, run 447 (one H200; prepared in session 78 as next-session-first-run.sh). Run at the commit that
# adds this name, passed as TCONV_COMMIT.
# Session 78 (run 446): the channel-tile grad_weight's producer loop, slimmed, took fam04 TF32 fwd+bwd 9.031 -> 7.516
# ms (the kernel 3.031; run 441's fff8a78 had 2.826, before the interleaved-rows rewrite) and fam04 bf16 under
# TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=2 (unit-stride grad_weight off) to 6.182 against "auto"'s 6.772 (run 443).
# Written after that device time, untested: TCONV_GRAD_WEIGHT_SHIFTED_X_LANE_BOXES=1, a unit's grad_output boxes
# issued by a lane each (4 a unit for fp32, 8 for 16-bit) instead of lane 0 in turn.
# 1. the lane-boxes test (TF32, bf16, fp16: same kernel, grid and bits as the default, the contract) and the
#    channel-tile tests;
# 2. fam04 fwd+bwd: TF32 default / LANE_BOXES=1; bf16 =2 (unit-stride off) default / LANE_BOXES=1; bf16 "auto";
# 3. a verified fam04 TF32 row (run 446's ran past 60 s: 90 here).
# Then: LANE_BOXES by default if it wins; the 16-bit channel tiles as the rule for fam04 bf16 (the unit-stride rule,
# unit_stride_mma_grad_weight_preferred, stepping aside), with the tests that check which kernel runs.
source scripts/device_prelude.sh
left 330 && timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "channel_lane_boxes or shifted_x_channel_tiles" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
t() {  # label, precision, environment...
  local label="$1" precision="$2"; shift 2
  (cd scripts && env "$@" timeout 45 python3 quick_timing.py fam04_convt1d_k3_65536 --precision "$precision" \
    --runs 10 --warmup 2 2>&1 | grep -v Warn | sed "s/^/$label /")
}
{
  left 450 && t tf32 tf32 TCONV_GRAD_WEIGHT_SHIFTED_X_LANE_BOXES=0
  left 450 && t tf32_lanes tf32 TCONV_GRAD_WEIGHT_SHIFTED_X_LANE_BOXES=1
  left 470 && t bf16_ch2 bf16 TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=2 TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=0
  left 470 && t bf16_ch2_lanes bf16 TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=2 TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=0 \
    TCONV_GRAD_WEIGHT_SHIFTED_X_LANE_BOXES=1
  left 480 && t bf16_auto bf16 TCONV_GRAD_WEIGHT_SHIFTED_X_LANE_BOXES=0
} | tee "$LOG/timing.log"
bench_rows 580 fam04_convt1d_k3_65536:tf32:90
device_finish
