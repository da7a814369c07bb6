#!/usr/bin/env bash
# Session 114's first call (run 566), one H100 (or H200), cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run>
# (540 on a cold call: the build takes 150-230 s of it). SECOND=1: the warm part (sanitizers, the switched test
# sweeps, suite rows).
# Session 113 (runs 563-565, H100) left fam01 and fam05 TF32 channels_last under eager (0.47x / 0.66x; 0.86x / 0.87x)
# and wrote, without a GPU, TCONV_UNIT_STRIDE_CL_LANE_QUADS=1: the unit-stride producer's channels-last x loads put a
# warp's lanes along 4 quads of 8 positions (8 L1 wavefronts a load against 32). Predicted: fam01 CL forward 6.19 ->
# 4.0-4.8 ms, L2-61's 1.43 -> ~1.25; contiguous calls untouched.
# Session 114 wrote, without a GPU, TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS_LAST=1: the overlapping shifted-x ring over
# channels-last x and grad_output (TF32 channels_last grad_weight ran on the mma.sync kernel: L2-61 2.271 ms against
# the contiguous ring's 1.335). Predicted: its test passes (bitwise equal to the contiguous ring), L2-61 CL grad_weight
# 2.27 -> 1.35-1.6 ms (the rounders' 7 scalar loads an item against 3 float4s, and 12 % more grad_output bytes),
# fwd+bwd 6.35 -> ~5.5 ms.
source scripts/device_prelude.sh
end=${END_S:-540}
quads=TCONV_UNIT_STRIDE_CL_LANE_QUADS
clgw=TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS_LAST
if [ -n "${SECOND:-}" ]; then
  for tool in memcheck racecheck; do
    left $(( end - 80 )) && env $quads=1 timeout 60 compute-sanitizer --tool $tool --kernel-name kns=unit_stride_forward \
      python3 scripts/unit_stride_cl_sanitize.py > "$LOG/${tool}_lane_quads.log" 2>&1
    grep -E "workload|SUMMARY|Error" "$LOG/${tool}_lane_quads.log" | head -6
    left $(( end - 80 )) && env $clgw=1 timeout 60 compute-sanitizer --tool $tool \
      --kernel-name kns=shifted_x_ring_channels_last python3 scripts/shifted_x_ring_sanitize.py --channels-last \
      > "$LOG/${tool}_cl_grad_weight.log" 2>&1
    grep -E "workload|SUMMARY|Error" "$LOG/${tool}_cl_grad_weight.log" | head -6
  done
  left $(( end - 150 )) && (export $quads=1; gpu_tests 150 cl_tf32_lane_quads tests/test_conv_transpose_gpu.py \
    "tf32 and (channels_last or strided)")
  bench_budget $end tf32 channels_last ${SUITE:-fam06_convt2d_k3x5_128x256 fam07_convt3d_k3_96x96x96 \
    fam03_convt3d_k3_64x64x64 fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 fam10_convt3d_k3_s2_p1_d2_16x32x32 \
    fam11_convt2d_k3x7_p1x3_512x1024 fam13_convt2d_k3_s5_p1_d2_64x128 real_unet3d_up real_dcgan_up real_vae_up}
  device_finish
  exit 0
fi
# The seconds left before END_S less a margin, at most $1: a short call still runs the first tests.
until_end() { local t=$(( end - ($(date +%s) - start) - 15 )); [ $t -gt "$1" ] && t=$1; echo $t; }
t=$(until_end 100); [ $t -gt 30 ] && gpu_tests $t cl_grad_weight tests/test_conv_transpose_gpu.py \
  "shifted_x_channels_last_agrees"
for setting in "$quads=" "$clgw=1" "$quads=1"; do
  left $(( end - 45 )) && LAYOUT=channels_last quick_time "$setting" l2_61_convt3d_relu_groupnorm tf32 auto $setting \
    | tee -a "$LOG/quick.log"
done
t=$(until_end 100); [ $t -gt 30 ] && gpu_tests $t lane_quads tests/test_conv_transpose_gpu.py \
  "lane_quads_where_switched"
for problem in fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512; do
  for setting in "$quads=" "$clgw=1 $quads=1"; do
    left $(( end - 45 )) && LAYOUT=channels_last quick_time "${setting// /,}" $problem tf32 auto $setting \
      | tee -a "$LOG/quick.log"
  done
done
left $(( end - 120 )) && gpu_tests 120 more_tests tests/test_conv_transpose_gpu.py \
  "keeps_256_row_tiles or channels_last_misaligned"
breakdowns_ab $end $clgw "0 1" "grad_weight|unit_stride|total" tf32 channels_last l2_61_convt3d_relu_groupnorm
breakdowns_ab $end $quads "0 1" "unit_stride|grad_weight|total" tf32 channels_last fam01_convt2d_k3_1024x1024
# fam01's and fam05's channels-last calls on the unit-stride mma.sync kernel (auto keeps 64 channels off it): a cheap
# look at whether it beats the wgmma kernel's channels-last access there
for problem in fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512; do
  left $(( end - 45 )) && LAYOUT=channels_last quick_time mma $problem tf32 unit_stride_mma | tee -a "$LOG/quick.log"
done
device_finish
