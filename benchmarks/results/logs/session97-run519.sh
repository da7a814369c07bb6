#!/usr/bin/env bash
# Session 97, run 519 (one H200; cold unless run 518's machine is still held). Run as
# TCONV_COMMIT=<sha> bash benchmarks/results/logs/session97-run519.sh
# Run 518: the grouped lines staging by 16-byte vectors passed its tests and gained everywhere but L1-73's forward
# (+8 %), so it is now the default (TCONV_GROUPED_MMA_POSITION_VECTORS unset = 1). Here:
# 1. the grouped tests at that default, every layout (the lines cases and the grouped grid, all algorithms);
# 2. the same per-pass A/B in fp32 channels-last (TF32 under torch's default flags: 4-element vectors);
# 3. verified channels-last rows of L1-73, fam09, L1-72 at the defaults, bf16 then TF32 (no TF32 channels-last rows
#    exist yet).
source scripts/device_prelude.sh
left 250 && gpu_tests 120 grouped tests/test_conv_transpose_gpu.py "grouped_mma_lines or grid_grouped"
for v in 0 1; do
  left 330 && TCONV_GROUPED_MMA_POSITION_VECTORS=$v timeout 60 python3 scripts/grouped_dense_probe.py --dtype fp32 \
    --layout channels_last --json "$LOG/dense_cl_fp32_$v.json" 2>&1 | grep -v Warn | sed "s/^/vectors_$v /" \
    | tee -a "$LOG/dense_probe.log"
done
bench_budget 430 bf16 channels_last l1_73_convt3d_strided_padded_grouped \
  fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 l1_72_convt3d_asym_kernel_strided_padded_grouped
mv "$LOG/bench_channels_last.log" "$LOG/bench_channels_last_bf16.log" 2>/dev/null
bench_budget 540 tf32 channels_last l1_73_convt3d_strided_padded_grouped \
  fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 l1_72_convt3d_asym_kernel_strided_padded_grouped
device_finish
