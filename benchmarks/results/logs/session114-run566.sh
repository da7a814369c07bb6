#!/usr/bin/env bash
# Prepared in session 113 for the next session's first call (run 566), one H100 (or H200), cold; TCONV_COMMIT=<full
# sha>, END_S=<seconds it may run> (540 on a cold call: the build takes 150-230 s of it).
# Session 113 (runs 563-565, H100): the fp32 channels-last form of the unit-stride mma.sync kernel became the default
# (L1-71 TF32 channels_last 0.20x -> 1.03x eager fwd, 0.49x -> 1.33x fwd+bwd), and fp32 channels-last calls keep to the
# 256-row unit-stride tiles (fam01 fwd 13.2 -> 6.19 ms, fam02 1.666 -> 0.872). fam01 and fam05 TF32 channels_last stay
# under eager (0.47x / 0.66x; 0.86x / 0.87x): run 563's source counters had the kernel's MMA warps waiting on the
# producer, whose 16-byte x loads put a warp's lanes on 32 positions C_in floats apart (32 L1 wavefronts a load).
# Written in session 113 without a GPU: TCONV_UNIT_STRIDE_CL_LANE_QUADS=1 puts a load's lanes along 4 quads of 8
# positions (8 wavefronts), the row pointers shuffled from the lanes that located them.
# 1. Under the switch: its test (contract over UNIT_STRIDE_LANE_QUADS_CASES, both grad layouts; bitwise against the
#    default) and session 113's untested misaligned channels-last test (TF32, exact fp32, bf16 under "auto").
#    Predicted: pass.
# 2. TF32 channels_last quick timings, switch unset / 1, on fam01, fam05 and L2-61, and fam01's breakdown under
#    both. Predicted: fam01 forward 6.19 -> 4.0-4.8 ms (contiguous 3.6 on the half tile), L2-61 1.43 -> ~1.25,
#    grad_input likewise; no change on contiguous calls (the switch only touches kChannelsLastAccess kernels).
# 3. Where time remains, the TF32 channels_last suite rows that runs 564-565 did not reach (SUITE="<rows>" to pick
#    others). A warm rerun with SECOND=1 (items 1-3 off) runs memcheck + racecheck of
#    scripts/unit_stride_cl_sanitize.py (predicted 0 errors), every TF32 channels_last and strided conv test under the
#    switch and
#    source counters of L2-61's channels-last grad_input under it (run 563 without: 36 % of samples at the MMA
#    warps' wait for the producer) and of fam01's channels-last forward. If it wins, make it the default
#    (set_unit_stride_channels_last_access; the test then compares 1 against 0).
source scripts/device_prelude.sh
end=${END_S:-540}
sw=TCONV_UNIT_STRIDE_CL_LANE_QUADS
if [ -n "${SECOND:-}" ]; then
  for tool in memcheck racecheck; do
    left $(( end - 80 )) && env $sw=1 timeout 60 compute-sanitizer --tool $tool --kernel-name kns=unit_stride_forward \
      python3 scripts/unit_stride_cl_sanitize.py > "$LOG/${tool}_lane_quads.log" 2>&1
    grep -E "workload|SUMMARY|Error" "$LOG/${tool}_lane_quads.log" | head -6
  done
  # (strided too: their views with channels innermost now stay off the half tiles as channels_last calls do)
  left $(( end - 150 )) && (export $sw=1; gpu_tests 150 cl_tf32_lane_quads tests/test_conv_transpose_gpu.py \
    "tf32 and (channels_last or strided)")
  export $sw=1
  if left $(( end - 100 )); then  # --launch-skip 1: the warm-up's second unit-stride launch, its grad_input
    timeout 100 ncu --clock-control none -k "regex:unit_stride_forward" --launch-skip 1 --launch-count 1 \
      --section SourceCounters --section WarpStateStats --import-source no --page source --print-source sass --csv \
      python3 scripts/quick_timing.py l2_61_convt3d_relu_groupnorm --precision tf32 --runs 1 --warmup 1 \
      --layout channels_last > "$LOG/src_l2_61_cl_grad_input_lane_quads.csv" 2> "$LOG/src_l2_61.err"
    gzip -f "$LOG/src_l2_61_cl_grad_input_lane_quads.csv"
    python3 scripts/ncu_source_summary.py "$LOG/src_l2_61_cl_grad_input_lane_quads.csv.gz" --top 12 \
      > "$LOG/src_l2_61_cl_grad_input_lane_quads.summary.txt" 2>&1
    head -30 "$LOG/src_l2_61_cl_grad_input_lane_quads.summary.txt" | cut -c1-150
  fi
  ncu_source_kernel $end fam01_cl_forward_lane_quads fam01_convt2d_k3_1024x1024 tf32 channels_last \
    "unit_stride_forward"
  device_finish
  exit 0
fi
left $(( end - 150 )) && (export $sw=1; gpu_tests 150 lane_quads tests/test_conv_transpose_gpu.py \
  "lane_quads_where_switched or keeps_256_row_tiles or channels_last_misaligned")
for problem in fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512 l2_61_convt3d_relu_groupnorm; do
  for setting in "$sw=" "$sw=1"; do
    left $(( end - 45 )) && LAYOUT=channels_last quick_time "$setting" $problem tf32 auto $setting \
      | tee -a "$LOG/quick.log"
  done
done
# fam01's and fam05's channels-last calls on the unit-stride mma.sync kernel's fp32 channels-last form (auto keeps 64
# channels off it, a rule measured on 16-bit and contiguous data): a cheap look at whether it beats the wgmma kernel's
# channels-last access here
for problem in fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512; do
  left $(( end - 45 )) && LAYOUT=channels_last quick_time mma $problem tf32 unit_stride_mma | tee -a "$LOG/quick.log"
done
breakdowns_ab $end $sw "0 1" "unit_stride|grad_weight|total" tf32 channels_last fam01_convt2d_k3_1024x1024
bench_budget $end tf32 channels_last ${SUITE:-fam06_convt2d_k3x5_128x256 fam07_convt3d_k3_96x96x96 \
  fam03_convt3d_k3_64x64x64 fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 fam10_convt3d_k3_s2_p1_d2_16x32x32 \
  fam11_convt2d_k3x7_p1x3_512x1024 fam13_convt2d_k3_s5_p1_d2_64x128 real_unet3d_up real_dcgan_up real_vae_up}
device_finish
