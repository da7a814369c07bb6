#!/usr/bin/env bash
# Prepared in sessions 101-102 for the next session's first GPU call (one H200, cold; rename to sessionNN-runMMM.sh
# when it runs, fix these lines, commit BEFORE the call, pass TCONV_COMMIT=<full sha, typed out>).
# 0. The specialized form's switch test in its 1 / 2 / 0 form (written after session 101's device time), and the
#    persistent form's switch test (TCONV_UNIT_STRIDE_PERSISTENT, development, default 0; written in session 102
#    without a device: never run). Then memcheck and racecheck of a small forward of 7 row tiles on 3 blocks.
# 1. The persistent form's A/B, TF32 (quick timing, L2-61 and fam06; L2-61's kernel breakdown). Predicted: L2-61's
#    conv kernel 0.884 -> ~0.75-0.80 ms (the set-up and ring fill of 19 of a block's ~20 tiles overlap the MMAs, the
#    store goes from registers without the staging round trip: ~45 us a tile now, ~29 us of MMAs), L2-61's forward
#    1.17 -> ~1.05; fam06's forward 1.70 -> ~1.55. A miss with the tests passing: the source counters below tell
#    where the MMA warps wait.
# 2. Source counters of L2-61's TF32 conv on the persistent kernel (the specialized one if it failed): do the MMA
#    warpgroups wait on full[] (the producer too slow: x prefetched two stages ahead in registers) or on their store?
# 3. The TF32 suite's first rows (contiguous; its last full run predates sessions 97-102's kernels) in what is left.
source scripts/device_prelude.sh
left 200 && gpu_tests 100 specialized tests/test_conv_transpose_gpu.py "unit_stride_specialized_switch"
left 300 && gpu_tests 150 persistent tests/test_conv_transpose_gpu.py "unit_stride_persistent_switch"
persistent_ok=0
grep -q "1 passed" "$LOG/persistent.log" && persistent_ok=1
small='import torch, tconv
x = torch.randn(1, 64, 6, 8, 33, device="cuda"); w = torch.randn(64, 128, 3, 3, 3, device="cuda")
torch.backends.cudnn.allow_tf32 = True
with tconv._ops.use_algorithm("igemm_strip"):
    y = tconv.conv_transpose3d(x, w, torch.randn(128, device="cuda"), padding=1)
torch.cuda.synchronize(); print("persistent forward ran", tuple(y.shape))'
for tool in memcheck racecheck; do
  [ $persistent_ok = 1 ] && left 330 && TCONV_UNIT_STRIDE_PERSISTENT=3 timeout 60 compute-sanitizer --tool $tool \
    --kernel-name kns=unit_stride_forward python3 -c "$small" > "$LOG/$tool.log" 2>&1; tail -2 "$LOG/$tool.log"
done
l2=l2_61_convt3d_relu_groupnorm
if [ $persistent_ok = 1 ]; then
  for v in 0 1; do left 360 && quick_time "persistent_$v" $l2 tf32 auto TCONV_UNIT_STRIDE_PERSISTENT=$v; done
  breakdowns_ab 420 TCONV_UNIT_STRIDE_PERSISTENT "0 1" "unit_stride_forward|total" tf32 contiguous $l2
  for v in 0 1; do
    left 440 && quick_time "persistent_$v" fam06_convt2d_k3x5_128x256 tf32 auto TCONV_UNIT_STRIDE_PERSISTENT=$v
  done
  TCONV_UNIT_STRIDE_PERSISTENT=1 ncu_source_kernel 480 l2_61_tf32_persistent $l2 tf32 contiguous \
    strip_unit_stride_forward
else
  ncu_source_kernel 400 l2_61_tf32_specialized $l2 tf32 contiguous strip_unit_stride_forward
fi
bench_budget 590 tf32 contiguous l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256 \
  l1_68_convt3d_square_input_asym_kernel l1_73_convt3d_strided_padded_grouped l1_71_convt2d_asym_input_square_kernel \
  l1_72_convt3d_asym_kernel_strided_padded_grouped fam01_convt2d_k3_1024x1024 fam02_convt3d_k3x5x7_16x32x64 \
  fam03_convt3d_k3_64x64x64 fam04_convt1d_k3_65536 fam05_convt2d_k3x7_512x512
device_finish
