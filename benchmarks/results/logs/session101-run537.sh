#!/usr/bin/env bash
# Session 101, run 537 (one H200); run with TCONV_COMMIT=<full sha of the commit it runs at, typed out>.
# 1. The wide-rows unit-stride forward's warp-specialized form (TCONV_UNIT_STRIDE_SPECIALIZED=1, development, default
#    0; a producer warpgroup loads and stores x, one bulk copy a stage brings the weights, the two MMA warpgroups only
#    issue): its switch test, memcheck and racecheck on one small forward, L2-61 TF32 quick timing and kernel
#    breakdown under 0 / 1, fam06 TF32 (C_out 128, k3x5) under 0 / 1. Predicted: L2-61's conv kernel ~0.95 -> ~0.70 ms
#    (the tensor pipe 59 % -> ~80 % in the K loop; the fill and store, 16 % of samples, unchanged).
# 2. The one-tap runs form as the default (run 536): the one-tap tests, then fam13 contiguous verified rows in bf16,
#    TF32 and exact fp32.
source scripts/device_prelude.sh
left 200 && gpu_tests 170 specialized tests/test_conv_transpose_gpu.py "unit_stride_specialized_switch"
small='import torch, tconv
x = torch.randn(1, 64, 3, 4, 33, device="cuda"); w = torch.randn(64, 128, 3, 3, 3, device="cuda")
torch.backends.cudnn.allow_tf32 = True
with tconv._ops.use_algorithm("igemm_strip"):
    y = tconv.conv_transpose3d(x, w, torch.randn(128, device="cuda"), padding=1)
torch.cuda.synchronize(); print("specialized forward ran", tuple(y.shape))'
for tool in memcheck racecheck; do
  left 300 && TCONV_UNIT_STRIDE_SPECIALIZED=1 timeout 60 compute-sanitizer --tool $tool \
    --kernel-name kns=unit_stride_forward python3 -c "$small" > "$LOG/$tool.log" 2>&1; tail -2 "$LOG/$tool.log"
done
l2=l2_61_convt3d_relu_groupnorm
for v in 0 1; do left 340 && quick_time "spec_$v" $l2 tf32 auto TCONV_UNIT_STRIDE_SPECIALIZED=$v; done
breakdowns_ab 400 TCONV_UNIT_STRIDE_SPECIALIZED "0 1" "unit_stride_forward|total" tf32 contiguous $l2
for v in 0 1; do
  left 430 && quick_time "spec_$v" fam06_convt2d_k3x5_128x256 tf32 auto TCONV_UNIT_STRIDE_SPECIALIZED=$v
done
left 390 && gpu_tests 110 one_tap tests/test_conv_transpose_gpu.py "one_tap"
stem=fam13_convt2d_k3_s5_p1_d2_64x128
end=505
for prec in bf16 tf32 fp32; do
  bench_budget $end $prec contiguous $stem && mv "$LOG/bench_contiguous.log" "$LOG/bench_$prec.log"
  end=$(( end + 30 ))
done
device_finish
