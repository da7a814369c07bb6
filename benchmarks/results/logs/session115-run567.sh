#!/usr/bin/env bash
# Session 115's first call (run 567), one H100 (or H200), cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run>
# (540 on a cold call: the build takes 150-230 s of it).
# Session 114 (run 566, H100): the shifted-x ring's channels-last form passed its test and took L2-61 TF32
# channels_last fwd+bwd 6.321 -> 5.457 ms, so it became the default (TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS_LAST=0 keeps
# the mma.sync kernel). Not yet run with it on: the sanitizers, the TF32 channels_last test sweep, other shapes.
# Session 115 removed the lanes-along-quads code (off, lost in run 566; it cost 23 default channels-last kernels 3-28
# registers).
# 0. Quick timings of L2-61 and fam01 TF32 channels_last (run 566 at c19db4e, H100: L2-61 1.525 / 5.457 under the
#    ring, fam01 6.908 / 19.270; run 565 at b691139, before lanes along quads: fam01 6.191 / 17.644). Predicted:
#    fam01 back near run 565's if the registers were the cause.
# 1. memcheck + racecheck of the ring's channels-last workload (now with groups of 32 -> 16; predicted 0 errors),
#    then its test (now with grouped, 16- and 32-output-channel cases) and every TF32 channels_last test (pass).
# 2. Breakdowns at 0 / unset of L2-61, fam01, fam05, L1-71 TF32 channels_last (predicted: the grad_weight pass near the
#    contiguous ring's, e.g. L2-61 2.29 -> ~1.42 ms; L1-71's 32 output channels fill half of the ring's 64-row tiles).
# 3. The TF32 channels_last suite rows while time remains (SUITE="<rows>" to pick others).
source scripts/device_prelude.sh
end=${END_S:-540}
clgw=TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS_LAST
for problem in l2_61_convt3d_relu_groupnorm fam01_convt2d_k3_1024x1024; do
  left $(( end - 60 )) && LAYOUT=channels_last quick_time default $problem tf32 auto | tee -a "$LOG/quick.log"
done
for tool in memcheck racecheck; do
  left $(( end - 80 )) && timeout 60 compute-sanitizer --tool $tool --kernel-name kns=shifted_x_ring_channels_last \
    python3 scripts/shifted_x_ring_sanitize.py --channels-last > "$LOG/${tool}_cl_grad_weight.log" 2>&1
  grep -E "workload|SUMMARY|Error" "$LOG/${tool}_cl_grad_weight.log" | head -8
done
left $(( end - 200 )) && gpu_tests 200 cl_tf32 tests/test_conv_transpose_gpu.py \
  "shifted_x_channels_last_agrees or (tf32 and channels_last)"
breakdowns_ab $end $clgw "0 1" "grad_weight|unit_stride|total" tf32 channels_last l2_61_convt3d_relu_groupnorm \
  fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512 l1_71_convt2d_asym_input_square_kernel
bench_budget $end tf32 channels_last ${SUITE:-l2_61_convt3d_relu_groupnorm fam01_convt2d_k3_1024x1024 \
  fam05_convt2d_k3x7_512x512 l1_71_convt2d_asym_input_square_kernel fam03_convt3d_k3_64x64x64 \
  fam06_convt2d_k3x5_128x256 fam07_convt3d_k3_96x96x96 fam11_convt2d_k3x7_p1x3_512x1024 real_unet3d_up real_vae_up}
device_finish
