#!/usr/bin/env bash
# Prepared in session 115 for the next session's first call (run 571), one H100 (or H200), cold; TCONV_COMMIT=<full
# sha> (computed locally: the device copy has no .git), END_S=<seconds it may run> (540 on a cold call).
# Run 570 (H100) found TF32 channels_last k2 s2 calls at a third of eager: real_unet3d_up 1.540 / 2.953 ms (eager
# 0.540 / 1.551), real_vae_up 3.037 / 5.999 (0.981 / 1.979); contiguous TF32 takes 0.281 / 0.865 and bf16
# channels_last 0.117 fwd. A source reading (session 115, notes/perf.md "TF32 channels_last k2 s2") has "auto" on the
# cp.async TF32 gather without the W fold (refused for a non-W-contiguous output), 4-byte A loads a position apart,
# fp32 stores staged channel-major (4 bytes a sector), and the mma.sync grad_weight (the rows kernel needs W-contiguous
# data). Unsure until this call: which kernels run, and what each forced form would give.
# 1. Kernel breakdowns of both, TF32 channels_last (predicted: the forward gather ~1.5 ms of real_unet3d_up's).
# 2. Quick timings under auto / igemm_tma (the TMA gather forced: no K bound, its copy, the channels-last epilogue) /
#    igemm_fold / igemm_mma / one_tap (fp32 FFMA), each passing its own forms; which wins says what to build
#    (igemm_tma clearly under 1.54 ms: an fp32 in-place channels-last read for the TMA gather; igemm_fold: the fold
#    rule for channels-last outputs; neither: the fp32 row-major epilogue).
# 2b. TCONV_GATHER_FP32_CHANNELS_LAST_EPILOGUE=1 (written in session 115 without a GPU, off): its test (bitwise
#    against the default, contract), then real_unet3d_up / real_vae_up quick timings under it (predicted: the forward
#    down by the stores' share, ~0.3 of 1.54 ms on real_unet3d_up; grad_input a little).
# 3. Source counters of fam01's TF32 channels_last forward (the 256-row unit-stride tile with the channels-last
#    access: 6.1 ms against eager's 2.9, the largest channels-last gap of the suite).
source scripts/device_prelude.sh
end=${END_S:-540}
for problem in real_unet3d_up real_vae_up; do
  left $(( end - 40 )) && timeout 40 python3 scripts/kernel_breakdown.py $problem --precision tf32 \
    --layout channels_last --iters 2 2>&1 | grep -v Warn >> "$LOG/breakdown.log"
done
grep -A6 "^==" "$LOG/breakdown.log" 2>/dev/null | cut -c1-170
for problem in real_unet3d_up real_vae_up; do
  for algorithm in auto igemm_tma igemm_fold igemm_mma one_tap; do
    left $(( end - 60 )) && LAYOUT=channels_last quick_time "$algorithm" $problem tf32 $algorithm \
      | tee -a "$LOG/quick.log"
  done
done
epilogue=TCONV_GATHER_FP32_CHANNELS_LAST_EPILOGUE
left $(( end - 150 )) && gpu_tests 150 gather_fp32_cl tests/test_conv_transpose_gpu.py gather_fp32_channels_last
for problem in real_unet3d_up real_vae_up; do
  left $(( end - 60 )) && LAYOUT=channels_last quick_time "epilogue_1" $problem tf32 auto $epilogue=1 \
    | tee -a "$LOG/quick.log"
done
# the switch's cost to default kernels (+1 to +4 registers on the fp32 wgmma gathers): L1-68 TF32 contiguous at the
# default, against its last H100 row (the suite at a56567e onward; see RUNS.md)
left $(( end - 60 )) && quick_time default_contiguous l1_68_convt3d_square_input_asym_kernel tf32 auto \
  | tee -a "$LOG/quick.log"
ncu_source_kernel $end fam01_cl_forward fam01_convt2d_k3_1024x1024 tf32 channels_last strip_unit_stride_forward
bench_budget $end tf32 channels_last ${SUITE:-real_unet3d_up real_vae_up fam01_convt2d_k3_1024x1024}
device_finish
