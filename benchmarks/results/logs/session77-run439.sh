#!/usr/bin/env bash
# Session 77, run 439 (one H200; prepared in session 76). Run at the commit that adds this name, passed as
# TCONV_COMMIT.
# Session 76 made the TF32 shifted-x grad_weight's producer run further ahead (narrow rows, no sliding at 4 stages:
# L1-71 2.41 -> 2.16 ms, fam11 4.62 -> 4.12). Written after its device time, untested on a GPU: the channel-tile form
# (TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=1, off by default) for one (kd, kh) row and > 64 output channels per group,
# fp32 data: warpgroup w takes C_out tile w of the one row, so 1D kernels stop leaving two of three warpgroups idle.
# Target: fam04 TF32's grad_weight (3.74 ms on the mma.sync kernel, 110 TF/s; cuDNN 2.07; projected ~3.3).
# 1. its test (the contract in TF32 on five cases, the launches and grid; none under 0 or unset);
# 2. fam04 TF32 fwd+bwd, "auto" against CHANNELS=1, and the kernel's time (kernel_breakdown, serial backward);
# 3. if it wins: a verified bench row comes in the next call, after the rule is made.
source scripts/device_prelude.sh
left 300 && timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "shifted_x_channel_tiles" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
{
  left 480 && (cd scripts && timeout 60 python3 quick_timing.py fam04_convt1d_k3_65536 --precision tf32 --runs 10 \
    --warmup 2 2>&1 | grep -v Warn | sed "s/^/auto /")
  left 480 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=1 timeout 60 python3 quick_timing.py \
    fam04_convt1d_k3_65536 --precision tf32 --runs 10 --warmup 2 2>&1 | grep -v Warn | sed "s/^/channels /")
} | tee "$LOG/timing.log"
left 520 && TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=1 timeout 60 python3 scripts/kernel_breakdown.py \
  fam04_convt1d_k3_65536 --precision tf32 2>&1 | tee "$LOG/breakdown_channels.log" | head -12
device_finish
