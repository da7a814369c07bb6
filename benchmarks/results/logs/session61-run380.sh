#!/usr/bin/env bash
# Session 61, run 380 (one H200). The strip grad_weight kernel's fp32 copies through L1 (TCONV_STRIP_COPY_L1=1:
# cp.async.ca instead of .cg; run 379's source counters had every 16-byte cp.async.cg count one L2 sector per thread,
# twice the ideal, 17.7 GB on HiFi-GAN): the TF32 strip tests with it on (whole backwards, every gradient); ncu's L2
# sectors of the kernel under both values; a same-build A/B (1 / 0) of HiFi-GAN's TF32 fwd+bwd. Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
TCONV_STRIP_COPY_L1=1 timeout 90 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "test_strip_grad_input and tf32" 2>&1 | tail -3 | tee "$LOG/pytest_strip_l1.log"
echo "== ncu at $(( $(date +%s) - start )) s"
for value in 1 0; do
  TCONV_STRIP_COPY_L1=$value timeout 60 ncu --clock-control none -k "regex:strip_grad_weight" --launch-skip 0 \
    --launch-count 1 --metrics gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_bytes.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,\
sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed \
    python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --runs 1 --warmup 1 2>&1 \
    | grep -E "gpu__|lts__|l1tex__|sm__" | sed "s/^/L1=$value /" | tee -a "$LOG/ncu_strip_l1.log"
done
echo "== A/B at $(( $(date +%s) - start )) s"
OUT="$LOG" SWITCH=TCONV_STRIP_COPY_L1 VALUES="1 0" ROUNDS=3 PRECISIONS="tf32" timeout 120 \
  bash scripts/device_switch_ab.sh real_hifigan_up 2>&1 | grep -v Warn | tee "$LOG/timing_strip_l1.log"
device_finish
