#!/usr/bin/env bash
# Session 61, run 379 (one H200).
# 1. The concurrent backward (tconv/_ops.py, TCONV_CONCURRENT_BACKWARD=1, development only: grad_weight and grad_bias on
#    a side stream beside grad_input, plain eager calls): the TF32 / bf16 grid tests under "auto" with it on (outputs
#    and every gradient against float64 and torch), then a same-build A/B (1 / 0) of fwd+bwd on ten suite rows, TF32.
# 2. HiFi-GAN's TF32 strip grad_weight: ncu's source counters (per SASS instruction: executed, stall samples, L2
#    sectors and their excess), to find where its 17.4 GB of SM reads (run 377) come from, against ~8.8 GB counted.
# 3. L2-61's TF32 kernel census (kernel_breakdown.py). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
TCONV_CONCURRENT_BACKWARD=1 timeout 120 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "test_grid and auto and (tf32 or bf16) and not grouped" 2>&1 | tail -4 | tee "$LOG/pytest_concurrent.log"
echo "== A/B at $(( $(date +%s) - start )) s"
OUT="$LOG" SWITCH=TCONV_CONCURRENT_BACKWARD VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" timeout 200 \
  bash scripts/device_switch_ab.sh l1_68_convt3d_square_input_asym_kernel l1_71_convt2d_asym_input_square_kernel \
  l1_72_convt3d_asym_kernel_strided_padded_grouped l1_73_convt3d_strided_padded_grouped \
  fam13_convt2d_k3_s5_p1_d2_64x128 fam10_convt3d_k3_s2_p1_d2_16x32x32 real_dcgan_up real_unet3d_up real_vae_up \
  fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 2>&1 | grep -v Warn | tee "$LOG/timing_concurrent.log"
echo "== ncu at $(( $(date +%s) - start )) s"
timeout 120 ncu --clock-control none -k "regex:strip_grad_weight" --launch-skip 0 --launch-count 1 \
  --section SourceCounters --section MemoryWorkloadAnalysis_Tables --import-source no --page source \
  --print-source sass --csv python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --runs 1 --warmup 1 \
  > "$LOG/src_hifigan_grad_weight.csv" 2> "$LOG/src_hifigan_grad_weight.err"
wc -l "$LOG/src_hifigan_grad_weight.csv"; tail -2 "$LOG/src_hifigan_grad_weight.err"
gzip "$LOG/src_hifigan_grad_weight.csv"
echo "== census at $(( $(date +%s) - start )) s"
(cd scripts && timeout 60 python3 kernel_breakdown.py l2_61_convt3d_relu_groupnorm --precision tf32 --iters 2 \
   --json "$LOG/kernels_l2_61_tf32.json" 2>&1 | grep -v Warn | tail -25) | tee "$LOG/l2_61.log"
device_finish
