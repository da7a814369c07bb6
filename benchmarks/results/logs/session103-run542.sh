#!/usr/bin/env bash
# Session 103, run 542 (one H200; the session's last device time: ~700 s after two refused starts); run with
# TCONV_COMMIT=<full sha, typed out>.
# Run 541 (the A/Bs, H200): the persistent kernel LOST (L2-61's TF32 conv 0.883 -> 1.067 ms, fam06's TF32 forward
# 1.710 -> 2.021; predicted ~0.75-0.80 and ~1.55), the 64-channel specialized form LOST (L2-61's grad_input 1.096 ->
# 1.208, fam03's forward 1.841 -> 2.013; predicted ~1.0 and ~1.7); bf16 on the specialized form with x pairs GAINED
# (L2-61 forward 0.755 -> 0.732, fam06 1.168 -> 1.026), so 16-bit calls with x pairs take it by default now.
# 1. the specialized switch test under the new default (its 16-bit forms now depend on x pairs). Predicted: passes.
# 2. ncu (sections, one launch) of L2-61's TF32 conv on the persistent kernel, to say why it lost against run 538's
#    one-tile profile (886.75 us, tensor pipe 65.8 %, long scoreboard 47.5 %). Expected, from the design: the MMA
#    warpgroups' register store of 32-byte pieces (a tile's 128 KB as 4096 warp stores of 8 x 32 B) idles the
#    tensor pipe longer than the staged store did, and/or L2 / DRAM write sectors per request grow.
# 3. verified bf16 rows of L2-61 and fam06 (contiguous) on the new default. Predicted from run 541's quick timing:
#    L2-61 ~0.73 / ~2.54 ms (was 0.753 / 2.749 at 874a7d5), fam06 ~1.03 / ~3.76 (was 1.169 / 3.917).
# 4. TF32 rows whose newest verified row predates sessions 97-102, while time lasts (likely one): fam07, fam03, L1-68,
#    fam01.
source scripts/device_prelude.sh
left 120 && gpu_tests 120 specialized tests/test_conv_transpose_gpu.py "unit_stride_specialized_switch"
TCONV_UNIT_STRIDE_PERSISTENT=1 ncu_kernel 360 l2_61_tf32_persistent l2_61_convt3d_relu_groupnorm tf32 \
  strip_unit_stride_forward
bench_budget 390 bf16 contiguous l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256
mv "$LOG/bench_contiguous.log" "$LOG/bench_bf16_contiguous.log" 2>/dev/null
bench_budget 450 tf32 contiguous fam07_convt3d_k3_96x96x96 fam03_convt3d_k3_64x64x64 \
  l1_68_convt3d_square_input_asym_kernel fam01_convt2d_k3_1024x1024
device_finish
