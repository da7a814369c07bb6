#!/usr/bin/env bash
# Session 78, run 445 (one H200). Run at the commit that adds this name, passed as TCONV_COMMIT.
# Run 443 left the channel-tile grad_weight's limit open: fam04 TF32 runs ~1400 cycles a unit of 32 positions (2.83
# ms) against ~384 of wgmmas, bf16's 16-bit form (four-channel rows, 8 stages) ~2600, and the stall profile mixes the
# idle third warpgroup's and the producers' spinning with the consumers'. Per-instruction samples say which wait holds
# which warps (scripts/ncu_source_summary.py offline):
# 1. source counters of fam04 TF32's channel-tile kernel and of bf16's 16-bit one (=2);
# 2. source counters of fam01 TF32's unit-stride forward (run 434: 36 % tensor, latency-bound at 8 warps an SM);
# 3. fam04 TF32 fwd+bwd at unit 16 (six stages) against "auto" (unit 32, four);
# 4. exact-fp32 bench rows (the newest are Nov 27's; fam06's forward was 0.53x eager there) while time is left.
source scripts/device_prelude.sh
left 330 && OUT="$LOG" KERNEL=shifted_x_channels_kernel CASES="fam04_tf32:fam04_convt1d_k3_65536:tf32" timeout 110 \
  bash scripts/ncu_source.sh 2>&1 | tee "$LOG/ncu_src.log"
left 330 && OUT="$LOG" TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=2 TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=0 \
  KERNEL=shifted_x_channels16 CASES="fam04_bf16:fam04_convt1d_k3_65536:bf16" timeout 110 bash scripts/ncu_source.sh \
  2>&1 | tee -a "$LOG/ncu_src.log"
left 400 && OUT="$LOG" KERNEL=strip_unit_stride_forward CASES="fam01_tf32:fam01_convt2d_k3_1024x1024:tf32" \
  timeout 110 bash scripts/ncu_source.sh 2>&1 | tee -a "$LOG/ncu_src.log"
gzip -f "$LOG"/src_*.csv 2>/dev/null
{
  left 450 && (cd scripts && timeout 50 python3 quick_timing.py fam04_convt1d_k3_65536 --precision tf32 --runs 10 \
    --warmup 2 2>&1 | grep -v Warn | sed "s/^/auto /")
  left 500 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=16 timeout 50 python3 quick_timing.py \
    fam04_convt1d_k3_65536 --precision tf32 --runs 10 --warmup 2 2>&1 | grep -v Warn | sed "s/^/unit16 /")
} | tee "$LOG/timing.log"
bench_rows 545 fam06_convt2d_k3x5_128x256:fp32:60 real_hifigan_up:fp32:70 real_dcgan_up:fp32:40 \
  fam13_convt2d_k3_s5_p1_d2_64x128:fp32:40
device_finish
