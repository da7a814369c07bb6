#!/usr/bin/env bash
# Session 86's second GPU call (one H200): the window grad_weight with the line boxes on by default, one partial sum a
# split (the two warpgroups add theirs in shared memory: twice the splits within the workspace) and the chunks chosen
# by the blocks' count of tiles. Run 470 had fam02's fwd+bwd at 2.973 ms with the line boxes (5.505 without), on 45
# blocks (9 chunks x 5 splits). Expected: fam02's grad_weight on 126 blocks (14 chunks of 4 x 9 splits), ~1.9 -> ~0.8
# ms, fwd+bwd ~2.0; other window grad_weight rows (L1-71, fam11, fam05, fam01) level or better.
# 1. GPU tests (bf16): the window grad_weight's contract cases (a new one of two splits) and the deep cases (line
#    boxes by default against 0; a new one planned as 14 chunks of 4);
# 2. quick timing and a kernel breakdown of fam02 channels-last bf16;
# 3. verified channels-last bf16 rows: fam02, L1-71, fam11, fam05, fam01 while the call has time.
source scripts/device_prelude.sh
left 330 && gpu_tests 110 gw_window tests/test_grad_weight_window_gpu.py "bf16 and (line_boxes or meets_the_contract)"
left 430 && LAYOUT=channels_last quick_time "auto" fam02_convt3d_k3x5x7_16x32x64 bf16 auto | tee -a "$LOG/timing.log"
breakdowns 480 bf16 channels_last fam02_convt3d_k3x5x7_16x32x64
bench_budget 575 bf16 channels_last fam02_convt3d_k3x5x7_16x32x64 l1_71_convt2d_asym_input_square_kernel \
  fam11_convt2d_k3x7_p1x3_512x1024 fam05_convt2d_k3x7_512x512 fam01_convt2d_k3_1024x1024
device_finish
