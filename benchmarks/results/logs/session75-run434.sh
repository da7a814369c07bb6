#!/usr/bin/env bash
# Session 75, run 434 (one H200; the session's last ~500 s of device time). Run at the commit that adds this name,
# passed as TCONV_COMMIT.
# Run 433: the lean shifted-x grad_weight (two 32-channel rows a warpgroup) lost on L1-71 TF32 (2.410 -> 2.439 ms) and
# gained 1 % on fam11 (4.614 -> 4.567), so halving the m64 padding does not speed the kernel up: it is not bound by
# its MMAs. Nsight Compute (stalls, pipes, throughput) of three TF32 kernels behind the suite's widest gaps to cuDNN
# (run 431/432 censuses), for the next session:
# 1. L1-71's shifted-x grad_weight (1.08 ms, 72 TF/s; cuDNN's wgrad 2.09);
# 2. fam01's unit-stride strip forward (3.54 ms, 175 TF/s; cuDNN's fprop GEMM 2.48);
# 3. HiFi-GAN's strip forward (2.16 ms, 255 TF/s; cuDNN's fprop 1.33).
source scripts/device_prelude.sh
for case in "grad_weight_wgmma_shifted_x l1_71_shifted_x_tf32:l1_71_convt2d_asym_input_square_kernel:tf32" \
    "strip_unit_stride_forward fam01_unit_stride_forward_tf32:fam01_convt2d_k3_1024x1024:tf32" \
    "strip_forward_kernel hifigan_strip_forward_tf32:real_hifigan_up:tf32"; do
  read -r kernel cases <<< "$case"
  left 400 && OUT="$LOG" KERNEL="$kernel" CASES="$cases" timeout 75 bash scripts/ncu_stalls.sh 2>&1 | tail -24
done
device_finish
