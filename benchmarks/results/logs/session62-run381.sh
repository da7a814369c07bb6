#!/usr/bin/env bash
# Session 62's first GPU call (one H200): session 61's two prepared runs in one build, most important first, each step
# only while the call has time left (the 600 s limit): next-session-first-run.sh (the concurrent backward's memory
# rule: its GPU test, the grid tests with it on, the extras it measures on the suite rows, the A/B) and
# next-session-second-run.sh (the strip grad_weight's x copies by channel: tests with it on, racecheck, A/B, ncu).
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
TCONV_STRIP_X_COPY_BY_CHANNEL=1 timeout 90 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "test_strip_grad_input and tf32" 2>&1 | tail -3 | tee "$LOG/pytest_strip_x.log"
timeout 40 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k "concurrent_backward" 2>&1 | tail -3 \
  | tee "$LOG/pytest_concurrent_rule.log"
echo "== racecheck at $(( $(date +%s) - start )) s"
left 380 && TCONV_STRIP_X_COPY_BY_CHANNEL=1 timeout 60 compute-sanitizer --tool racecheck --print-limit 5 \
  python3 -m pytest -q tests/test_conv_transpose_gpu.py -k "test_strip_grad_input and tf32 and s0" 2>&1 | tail -4 \
  | tee -a "$LOG/pytest_strip_x.log"
echo "== strip A/B at $(( $(date +%s) - start )) s"
left 420 && OUT="$LOG" SWITCH=TCONV_STRIP_X_COPY_BY_CHANNEL VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" timeout 60 \
  bash scripts/device_switch_ab.sh real_hifigan_up 2>&1 | grep -v Warn | tee "$LOG/timing_strip_x.log"
echo "== grid at $(( $(date +%s) - start )) s"
left 440 && TCONV_CONCURRENT_BACKWARD=1 timeout 90 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "test_grid and auto and (tf32 or bf16) and not grouped" 2>&1 | tail -3 | tee -a "$LOG/pytest_concurrent_rule.log"
echo "== extras at $(( $(date +%s) - start )) s"
left 470 && (cd scripts && timeout 80 python3 concurrent_backward_extras.py --precision tf32 \
   --json "$LOG/concurrent_extras.json" 2>&1 | grep -v Warn) | tee "$LOG/concurrent_extras.log"
echo "== concurrent A/B at $(( $(date +%s) - start )) s"
left 500 && OUT="$LOG" SWITCH=TCONV_CONCURRENT_BACKWARD VALUES="1 0" ROUNDS=1 PRECISIONS="tf32" timeout 60 \
  bash scripts/device_switch_ab.sh real_dcgan_up real_unet3d_up fam13_convt2d_k3_s5_p1_d2_64x128 \
  l1_72_convt3d_asym_kernel_strided_padded_grouped fam10_convt3d_k3_s2_p1_d2_16x32x32 2>&1 | grep -v Warn \
  | tee "$LOG/timing_concurrent_rule.log"
echo "== ncu at $(( $(date +%s) - start )) s"
left 540 && TCONV_STRIP_X_COPY_BY_CHANNEL=1 timeout 40 ncu --clock-control none -k "regex:strip_grad_weight" \
    --launch-skip 0 --launch-count 1 --metrics gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum \
    python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --runs 1 --warmup 1 2>&1 \
    | grep -E "gpu__|lts__|l1tex__" | tee -a "$LOG/ncu_strip_x.log"
device_finish
