#!/usr/bin/env bash
# Session 107, run 546 (one H100 or H200, cold). The row ring made L2-61's TF32 grad_weight 2.188 -> 1.414 ms on H100
# (run 543; 164 TFLOP/s, the forward's conv kernel 263 on the same FLOPs). Before pipelining its consumers across units
# (a wgmma group in flight while the next unit's fragments load), find where the ring kernel's warps wait:
# 1. ncu sections (SpeedOfLight, warp states) and per-instruction stall samples of the ring kernel on L2-61 TF32.
#    Predicted if pipelining is the lever: the consumer warps' samples concentrate on the wgmma wait and the next
#    unit's full/ready waits plus fragment loads, with the tensor pipe well under 70 %.
# 2. Verified TF32 rows in what is left: real_unet3d_up (never timed under the ring), then the oldest rows of the
#    suite estimate (L1-73, fam09 from Nov 28; L1-72, fam10, fam12, fam08 from Nov 29). Predicted: within 3 % of their
#    newest rows (no default of theirs changed since), real_unet3d_up's grad_weight faster if it takes the ring.
source scripts/device_prelude.sh
l2=l2_61_convt3d_relu_groupnorm
ncu_source_kernel 320 l2_61_ring $l2 tf32 contiguous shifted_x_ring
ncu_kernel 420 l2_61_ring $l2 tf32 shifted_x_ring
bench_budget 560 tf32 contiguous real_unet3d_up l1_73_convt3d_strided_padded_grouped \
  fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 l1_72_convt3d_asym_kernel_strided_padded_grouped \
  fam10_convt3d_k3_s2_p1_d2_16x32x32 fam12_convt1d_k3_s2_p1_d2_131072 fam08_convt1d_k5_d3_131072
device_finish
