#!/usr/bin/env bash
# Session 59, run 368 (one H200). Two default changes from run 367's data, measured in one build:
# 1. fp32 (TF32) data take the unit-stride strip forward from K 384 (was 512): run 367's ncu had fam04's forward at
#    2.36 ms on it against 3.18 on the mma.sync gather. A/B of TCONV_UNIT_STRIDE_MIN_K_FP32 (0: the new 384; 512: the
#    old rule; 288: L1-71 too) on fam04 and L1-71, fwd and fwd+bwd (grad_input at stride 1 follows the same rule).
# 2. the 16-bit rows grad_weight kernel's swizzled form is the default (run 367: faster per kernel on DCGAN and U-Net
#    3D), but run 366's fwd+bwd wall times on U-Net 3D and its block were slower and widely spread under it: 40 runs a
#    process, both values, two rounds.
# The kernel-choice tests first (the rules moved). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
timeout 220 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_grad_weight_rows16_gpu.py \
  "tests/test_conv_transpose_gpu.py::test_unit_stride_forward_where_planned" \
  tests/test_gather_specialized_gpu.py::test_specialized_gather_is_what_runs \
  tests/test_gather_tma_gpu.py -k "what_runs or keeps_the_copy or stays_off or leaves or rule or where" \
  2>&1 | tee "$LOG/pytest_rules.log" | tail -4
timeout 80 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_widest_gpu.py -k rule_by_grid 2>&1 \
  | tee "$LOG/pytest_widest_rule.log" | tail -2
echo "A/B at $(( $(date +%s) - start )) s"
OUT="$LOG" SWITCH=TCONV_UNIT_STRIDE_MIN_K_FP32 VALUES="0 512 288" ROUNDS=2 PRECISIONS=tf32 timeout 200 \
  bash scripts/device_switch_ab.sh fam04_convt1d_k3_65536 l1_71_convt2d_asym_input_square_kernel 2>&1 \
  | cut -c1-170 | tee "$LOG/timing_min_k.log"
(cd scripts
 for round in 1 2; do for v in 1 0; do
   TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE=$v timeout 60 python3 quick_timing.py real_unet3d_up real_unet3d_up_block \
     --precision bf16 --runs 40 --warmup 3 --json "$LOG/swizzle_${v}_$round.json" | sed "s/^/swizzle=$v /" | cut -c1-170
 done; done
 timeout 60 python3 kernel_breakdown.py fam04_convt1d_k3_65536 --precision tf32 --iters 3 \
   --json "$LOG/kernels_fam04_tf32.json" > "$LOG/kernels_fam04_tf32.log" 2>&1
 grep -A6 "^== " "$LOG/kernels_fam04_tf32.log" | cut -c1-170) 2>&1 | tee "$LOG/timing_swizzle.log"
device_finish
