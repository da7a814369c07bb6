#!/usr/bin/env bash
# Session 97, run 518 (one H200; cold unless run 517's machine is still held). Run as
# TCONV_COMMIT=<sha> bash benchmarks/results/logs/session97-run518.sh
# Run 517: the grouped mma.sync kernels are 1.5-3x slower channels-last than contiguous in bf16 (L1-73 grad_weight
# 2.44 / 1.79 ms, forward 1.51 / 0.91; fam09 grad_weight 1.42 / 0.45, forward 0.71 / 0.46): their lines staging
# reads a channels-last source element by element, a position stride apart. TCONV_GROUPED_MMA_POSITION_VECTORS=1
# (development, default 0) loads a position's group channels as 16-byte vectors, a lane a position, four loads in
# flight a warp. Predicted: both kernels near their contiguous times channels-last (L1-73 f+b 5.08 -> ~4.0 ms, fam09
# 2.69 -> ~1.7). Here:
# 1. its switch test (bit for bit across the switch, the contract channels-last under 1; bf16, TF32), the lines and
#    grouped grid tests channels-last under 1;
# 2. scripts/grouped_dense_probe.py under 0 and 1 (per-pass ms, bf16 channels-last; the dense form beside);
# 3. verified bf16 channels-last rows of L1-73, fam09, L1-72 under 1.
source scripts/device_prelude.sh
left 300 && gpu_tests 240 position_vectors tests/test_conv_transpose_gpu.py "position_vectors_switch"
left 300 && TCONV_GROUPED_MMA_POSITION_VECTORS=1 gpu_tests 150 lines_cl tests/test_conv_transpose_gpu.py \
  "(grouped_mma_lines or grid_grouped) and channels_last"
for v in 0 1; do
  left 420 && TCONV_GROUPED_MMA_POSITION_VECTORS=$v timeout 60 python3 scripts/grouped_dense_probe.py \
    --layout channels_last --json "$LOG/dense_cl_$v.json" 2>&1 | grep -v Warn | sed "s/^/vectors_$v /" \
    | tee -a "$LOG/dense_probe.log"
done
TCONV_GROUPED_MMA_POSITION_VECTORS=1 bench_budget 585 bf16 channels_last l1_73_convt3d_strided_padded_grouped \
  fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 l1_72_convt3d_asym_kernel_strided_padded_grouped
device_finish
