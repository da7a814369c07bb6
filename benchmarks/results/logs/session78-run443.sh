#!/usr/bin/env bash
# Session 78, run 443 (one H200; the session's first device call). Run at the commit that adds this name, passed as
# TCONV_COMMIT. Prepared in session 77.
# Session 77 made the channel-tile shifted-x grad_weight fam04 TF32's default (run 441: the pass 3.739 -> 2.826 ms,
# fwd+bwd 1.53x -> 1.69x eager) through channel-pair rows. Written after its device time, untested on a GPU: the same
# form for fp16/bf16 data (TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=2; 4-channel rows where a 16-bit plane is 4 bytes past
# 16, fam04's case). Target: fam04 bf16's grad_weight (the unit-stride wgmma kernel; fwd+bwd 6.717 ms, 1.09x eager).
# "auto" takes the unit-stride grad_weight first for 16-bit data up to 128 channels, so the A/B turns it off.
# 1. both channel-tile tests (TF32; fp16 and bf16 under =2);
# 2. fam04 bf16 fwd+bwd: "auto", against CHANNELS=2 with TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=0, and the breakdowns;
# 3. Nsight Compute of fam04 TF32's channel-tile kernel (2.83 ms, MMAs ~1/3 busy by count): DRAM and L2 throughput
#    (grad_output is read once per C_in tile of 32: ~10.7 GB a pass if L2 shares nothing, ~2.5 ms at 4.2 TB/s);
# 4. if the 16-bit form wins: the rule (16-bit channel tiles by default; the unit-stride rule stepping aside) and a
#    verified row.
source scripts/device_prelude.sh
left 300 && timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "shifted_x_channel_tiles" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
{
  left 470 && (cd scripts && timeout 60 python3 quick_timing.py fam04_convt1d_k3_65536 --precision bf16 --runs 10 \
    --warmup 2 2>&1 | grep -v Warn | sed "s/^/auto /")
  left 470 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=2 TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=0 timeout 60 \
    python3 quick_timing.py fam04_convt1d_k3_65536 --precision bf16 --runs 10 --warmup 2 2>&1 | grep -v Warn \
    | sed "s/^/channels=2 /")
} | tee "$LOG/timing.log"
left 500 && timeout 45 python3 scripts/kernel_breakdown.py fam04_convt1d_k3_65536 --precision bf16 2>&1 \
  | tee "$LOG/breakdown_auto.log" | grep -v Warn | head -6
left 540 && TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=2 TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=0 timeout 45 python3 \
  scripts/kernel_breakdown.py fam04_convt1d_k3_65536 --precision bf16 2>&1 | tee "$LOG/breakdown_channels.log" \
  | grep -v Warn | head -6
left 470 && OUT="$LOG" KERNEL=shifted_x_channels CASES="fam04_tf32:fam04_convt1d_k3_65536:tf32" timeout 110 \
  bash scripts/ncu_stalls.sh 2>&1 | tee "$LOG/ncu_fam04.log" | head -30
device_finish
