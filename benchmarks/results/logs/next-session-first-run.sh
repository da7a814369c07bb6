#!/usr/bin/env bash
# Prepared in session 61 for the next session's first GPU call (one H200; rename to sessionNN-runMMM.sh when it runs).
# The concurrent backward's memory rule (tconv/_ops.py: concurrent_backward_fits, written after session 61's device
# time was spent): its GPU test and the TF32 / bf16 grid tests with TCONV_CONCURRENT_BACKWARD=1; what the rule decides
# on the 22 suite rows (each pass's measured extra bytes: scripts/concurrent_backward_extras.py); then run 379's A/B
# again with the rule in place (1 / 0). If the tests pass and the rows it admits gain as in run 379, make it the default
# (README "Device memory" then says what running the passes at once may add). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
timeout 40 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k "concurrent_backward" 2>&1 | tail -3 \
  | tee "$LOG/pytest_concurrent_rule.log"
TCONV_CONCURRENT_BACKWARD=1 timeout 120 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "test_grid and auto and (tf32 or bf16) and not grouped" 2>&1 | tail -3 | tee -a "$LOG/pytest_concurrent_rule.log"
echo "== extras at $(( $(date +%s) - start )) s"
(cd scripts && timeout 150 python3 concurrent_backward_extras.py --precision tf32 bf16 \
   --json "$LOG/concurrent_extras.json" 2>&1 | grep -v Warn) | tee "$LOG/concurrent_extras.log"
echo "== A/B at $(( $(date +%s) - start )) s"
OUT="$LOG" SWITCH=TCONV_CONCURRENT_BACKWARD VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" timeout 150 \
  bash scripts/device_switch_ab.sh l1_71_convt2d_asym_input_square_kernel \
  l1_72_convt3d_asym_kernel_strided_padded_grouped l1_73_convt3d_strided_padded_grouped \
  fam13_convt2d_k3_s5_p1_d2_64x128 fam10_convt3d_k3_s2_p1_d2_16x32x32 real_dcgan_up real_unet3d_up real_vae_up \
  fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 2>&1 | grep -v Warn | tee "$LOG/timing_concurrent_rule.log"
device_finish
