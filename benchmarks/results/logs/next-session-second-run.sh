#!/usr/bin/env bash
# Prepared in session 61 for the next session (one H200; rename to sessionNN-runMMM.sh when it runs).
# The strip grad_weight kernel's x copies by channel (TCONV_STRIP_X_COPY_BY_CHANNEL=1, written in session 61 without a
# GPU: four lanes per channel's 64 bytes, a bank-skewed raw layout, __syncwarp before and after the slot stores).
# Run 379's source counters had these copies at 32 shared wavefronts and 32 L2 sectors per warp instruction (ideal 4
# and 16), and the kernel's shared-memory path ~89 % busy (778 M wavefronts in 3.88 ms on HiFi-GAN). 1. the TF32
# strip tests with it on (whole backwards, every gradient) and memcheck on one; 2. ncu's shared wavefronts and L2
# sectors of the kernel under both values; 3. a same-build A/B (1 / 0) of HiFi-GAN's TF32 fwd+bwd. If it passes and
# wins, make it the default (and drop the old mapping). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
TCONV_STRIP_X_COPY_BY_CHANNEL=1 timeout 90 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "test_strip_grad_input and tf32" 2>&1 | tail -3 | tee "$LOG/pytest_strip_x.log"
TCONV_STRIP_X_COPY_BY_CHANNEL=1 timeout 60 compute-sanitizer --tool racecheck --print-limit 5 python3 -m pytest -q \
  tests/test_conv_transpose_gpu.py -k "test_strip_grad_input and tf32 and s0" 2>&1 | tail -4 \
  | tee -a "$LOG/pytest_strip_x.log"
echo "== ncu at $(( $(date +%s) - start )) s"
for value in 1 0; do
  TCONV_STRIP_X_COPY_BY_CHANNEL=$value timeout 60 ncu --clock-control none -k "regex:strip_grad_weight" \
    --launch-skip 0 --launch-count 1 --metrics gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum \
    python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --runs 1 --warmup 1 2>&1 \
    | grep -E "gpu__|lts__|l1tex__" | sed "s/^/BY_CHANNEL=$value /" | tee -a "$LOG/ncu_strip_x.log"
done
echo "== A/B at $(( $(date +%s) - start )) s"
OUT="$LOG" SWITCH=TCONV_STRIP_X_COPY_BY_CHANNEL VALUES="1 0" ROUNDS=3 PRECISIONS="tf32" timeout 120 \
  bash scripts/device_switch_ab.sh real_hifigan_up 2>&1 | grep -v Warn | tee "$LOG/timing_strip_x.log"
device_finish
