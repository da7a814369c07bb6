#!/usr/bin/env bash
# Session 79, run 448 (one H200). Run at the commit that adds this name, passed as TCONV_COMMIT.
# Run 447: lane boxes won (fam04 fwd+bwd TF32 7.685 -> 7.046 ms, bf16 channel tiles 6.406 -> 5.579 against "auto"'s
# unit-stride grad_weight 6.740). This commit makes both the rule: lane boxes by default, and the 16-bit channel
# tiles by rule where the unit-stride grad_weight steps aside (igemm_grad_weight_takes_channel_tiles). It also hoists
# the measured and narrow shifted-x producers' per-row (kd, kh) divisions out of the unit loop (not at the 16-bit
# unit 48, where they spilled): their tests come in the next call.
# 1. the channel-tile tests (TF32; 16-bit by default now, none under =1; lane boxes default against =0) and the
#    unit-stride grad_weight's where-planned test;
# 2. fam04 fwd+bwd "auto": bf16 (predicted ~5.58 ms, run 447's forced figure), TF32 (~7.05); L1-71 and fam05 TF32
#    (hoisted producers; previous rows 2.155 and 4.959 ms fwd+bwd);
# 3. a verified fam04 bf16 row.
source scripts/device_prelude.sh
left 330 && timeout 220 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "channel_tiles or channel_lane_boxes or unit_stride_mma_grad_weight_where_planned" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
t() {  # label, problem, precision, environment...
  local label="$1" problem="$2" precision="$3"; shift 3
  (cd scripts && env "$@" timeout 45 python3 quick_timing.py "$problem" --precision "$precision" \
    --runs 10 --warmup 2 2>&1 | grep -v Warn | sed "s/^/$label /")
}
{
  left 480 && t bf16_auto fam04_convt1d_k3_65536 bf16
  left 480 && t bf16_unit_stride fam04_convt1d_k3_65536 bf16 TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=1
  left 490 && t tf32_auto fam04_convt1d_k3_65536 tf32
  left 500 && t tf32_auto l1_71_convt2d_asym_input_square_kernel tf32
  left 510 && t tf32_auto fam05_convt2d_k3x7_512x512 tf32
} | tee "$LOG/timing.log"
bench_rows 590 fam04_convt1d_k3_65536:bf16:75
device_finish
