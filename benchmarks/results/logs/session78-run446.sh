#!/usr/bin/env bash
# Session 78, run 446 (one H200; the session's last ~600 s of device time). Run at the commit that adds this name,
# passed as TCONV_COMMIT.
# Run 445's source counters of fam04 TF32's channel-tile grad_weight: producer warp 0 ~93 % busy over ~360
# instructions a unit (five integer divisions: the interleaved rows' R as a run-time divisor, a row's kd and kh),
# consumers waiting on ready/full, the idle third warpgroup's spins a quarter of all samples; and fam04 TF32 fwd+bwd at
# 9.031 ms against run 441's 7.278 (the interleaved-rows rewrite, 32454d3, lengthened that producer path). This
# commit gives the channel-tile form a producer loop of its own with the per-block constants worked out once, and the
# idle warpgroup waits at the epilogue's barrier (empty counts the computing warpgroups only); other kernels' PTX is
# unchanged.
# 1. both channel-tile tests; 2. fam04 TF32 fwd+bwd "auto" against =0 (the mma.sync grad_weight), bf16 =2 against
# "auto"; 3. the TF32 breakdown; 4. a verified fam04 TF32 row.
source scripts/device_prelude.sh
left 330 && timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "shifted_x_channel_tiles" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
{
  left 440 && (cd scripts && timeout 45 python3 quick_timing.py fam04_convt1d_k3_65536 --precision tf32 --runs 10 \
    --warmup 2 2>&1 | grep -v Warn | sed "s/^/auto /")
  left 440 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=0 timeout 45 python3 quick_timing.py \
    fam04_convt1d_k3_65536 --precision tf32 --runs 10 --warmup 2 2>&1 | grep -v Warn | sed "s/^/channels=0 /")
  left 470 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=2 TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=0 timeout 45 \
    python3 quick_timing.py fam04_convt1d_k3_65536 --precision bf16 --runs 10 --warmup 2 2>&1 | grep -v Warn \
    | sed "s/^/bf16 channels=2 /")
} | tee "$LOG/timing.log"
left 500 && timeout 40 python3 scripts/kernel_breakdown.py fam04_convt1d_k3_65536 --precision tf32 2>&1 \
  | tee "$LOG/breakdown.log" | grep -v Warn | head -5
bench_rows 575 fam04_convt1d_k3_65536:tf32:60
device_finish
