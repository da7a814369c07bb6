#!/usr/bin/env bash
# Session 77, run 441 (one H200). Run at the commit that adds this name, passed as TCONV_COMMIT.
# Run 439 found that the channel-tile shifted-x grad_weight (session 76) never ran on fam04 TF32: its grad_output
# (W_out 65538, a channel stride 2 floats past 16 bytes) has no 5-D or flat tensor map. This commit reads it as
# channel-pair rows (shifted_x_pair_dy_fits: two channels' planes back to back are a row on 16 bytes; even channels
# in tile rows 0-31, odd in 32-63) and makes the channel-tile form the default (TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=0
# for the old path). Written without a GPU; if the test fails or fam04 loses, the default goes back.
# 1. the channel-tile test (eight cases, three with pair rows; the contract, the kernel and grid under 1 and unset,
#    the same bits, none under 0);
# 2. fam04 TF32 fwd+bwd "auto" against CHANNELS=0 (before: 8.155 ms, run 439) and the kernel breakdown;
# 3. a verified fam04 TF32 row (limit 90 s);
# 4. with the time left, the other shifted-x tests of test_conv_transpose_gpu.py (the rule's neighbours).
source scripts/device_prelude.sh
left 300 && timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "shifted_x_channel_tiles" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
{
  left 420 && (cd scripts && timeout 60 python3 quick_timing.py fam04_convt1d_k3_65536 --precision tf32 --runs 10 \
    --warmup 2 2>&1 | grep -v Warn | sed "s/^/auto /")
  left 420 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=0 timeout 60 python3 quick_timing.py \
    fam04_convt1d_k3_65536 --precision tf32 --runs 10 --warmup 2 2>&1 | grep -v Warn | sed "s/^/channels=0 /")
} | tee "$LOG/timing.log"
left 440 && timeout 60 python3 scripts/kernel_breakdown.py fam04_convt1d_k3_65536 --precision tf32 2>&1 \
  | tee "$LOG/breakdown.log" | grep -v Warn | head -8
bench_rows 520 fam04_convt1d_k3_65536:tf32:90
left 500 && timeout $(( 575 - ($(date +%s) - start) )) python3 -m pytest -q -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py --tb=short -k "shifted_x and not channel_tiles" > "$LOG/pytest_shifted_x.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_shifted_x.log" 2>/dev/null | cut -c1-300 | tail -8
device_finish
