#!/usr/bin/env bash
# Prepared in session 116 for the next session's first call (run 574), one H100 (or H200), cold; TCONV_COMMIT=<full
# sha> (computed locally), END_S=<seconds it may run> (540 on a cold call).
# Written in session 116 without device time, off, not yet run on a GPU: the warp-specialized rows grad_weight kernel
# over channels-last x and grad_output (TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST=1; kChannelsLast: boxes landing
# [position][channel], the rounders reading the x box across, the A fragments stepping along the raw rows by their
# 36-channel pitch). Run 572 (H100, TF32 channels_last) had grad_weight on the mma.sync kernel as the largest kernel of
# the up-samplers' fwd+bwd: real_unet3d_up 0.786 of 1.374 ms, real_vae_up 1.485 of 2.712 (contiguous, the rows kernel
# runs the 3D call's in 0.270, run 361). Predicted under the switch: ~0.3 and ~0.6 ms, fwd+bwd ~0.85 and ~1.8 ms.
# 1. The form's test (contract, bit for bit against the contiguous rows kernel, the kernel launched; unset: off).
# 2. memcheck of one channels-last k2 s2 call under the switch.
# 3. Quick timings, TF32 channels_last, switch 1 against unset: real_unet3d_up, real_vae_up, real_dcgan_up (k4 s2: two
#    folded taps), and the U-Net block; breakdowns of the first two under 1.
# 4. Also built in session 116, off, not run: the in-place fp32 TMA form on 256-column tiles
#    (TCONV_TMA_FP32_IN_PLACE_WIDE=1; real_vae_up's grad_input has 256 columns): its test, and real_vae_up / real_unet3d_up
#    quick timings under it (predicted: the grad_input a little faster, as the direct form's 256 columns were).
# 5. The rest of test_gather_tma_gpu.py that runs 572-573 did not reach (past their 150 s limits).
source scripts/device_prelude.sh
end=${END_S:-540}
switch=TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST
# Session 117 reordered (its device time mostly spent on failed starts): the most wanted first.
left $(( end - 120 )) && gpu_tests 120 rows_cl tests/test_grad_weight_rows_channels_last_gpu.py rows_channels_last
for problem in real_unet3d_up real_vae_up; do
  for value in 1 0; do
    left $(( end - 45 )) && LAYOUT=channels_last quick_time "rows_cl_$value" $problem tf32 auto $switch=$value \
      | tee -a "$LOG/quick.log"
  done
done
# Session 118 added: the unit-stride forward's channels-last store, one row decode a lane and the y offsets shuffled
# (TCONV_UNIT_STRIDE_CL_STORE_ROWS=2) against every lane decoding every row (=1, the default): fam01 TF32
# channels_last (predicted 6.1 -> ~4.5-5 ms forward), fam05, and its test.
for problem in fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512; do
  for value in 2 1; do
    left $(( end - 45 )) && LAYOUT=channels_last quick_time "cl_store_rows_$value" $problem tf32 auto \
      TCONV_UNIT_STRIDE_CL_STORE_ROWS=$value | tee -a "$LOG/quick.log"
  done
done
# and the fp32 64-channel half tile on its channels-last access (session 118; TCONV_UNIT_STRIDE_CL_HALF_TILE=1 lets
# channels-last calls take it), fam01 under 1 with each store form
for value in 2 1; do
  left $(( end - 45 )) && LAYOUT=channels_last quick_time "cl_half_tile_store_rows_$value" fam01_convt2d_k3_1024x1024 \
    tf32 auto TCONV_UNIT_STRIDE_CL_HALF_TILE=1 TCONV_UNIT_STRIDE_CL_STORE_ROWS=$value | tee -a "$LOG/quick.log"
done
left $(( end - 100 )) && gpu_tests 100 cl_store_rows tests/test_conv_transpose_gpu.py "store_rows_switch or \
half_tile_switch or unit_stride_channels_last_where_switched or keeps_256_row_tiles"
# Session 117 added: the TMA gather over phases of unequal grids (TCONV_TMA_UNEQUAL_PHASES=1): its test and fam10's
# TF32 channels_last forward under 1 and 0.
left $(( end - 120 )) && gpu_tests 120 unequal tests/test_gather_tma_gpu.py unequal_phases
for value in 1 0; do
  left $(( end - 45 )) && LAYOUT=channels_last quick_time "unequal_$value" fam10_convt3d_k3_s2_p1_d2_16x32x32 tf32 \
    auto TCONV_TMA_UNEQUAL_PHASES=$value | tee -a "$LOG/quick.log"
done
# Session 118 added: fam01's channels-last forward on the in-place TMA form and on the warp-specialized 64-channel
# form (run 575's script has both too, for a call that reaches it).
left $(( end - 45 )) && LAYOUT=channels_last quick_time "fam01_tma_in_place_2" fam01_convt2d_k3_1024x1024 tf32 \
  igemm_tma TCONV_TMA_FP32_IN_PLACE=2 | tee -a "$LOG/quick.log"
left $(( end - 45 )) && LAYOUT=channels_last quick_time "fam01_specialized_64_1" fam01_convt2d_k3_1024x1024 tf32 \
  auto TCONV_UNIT_STRIDE_SPECIALIZED_64=1 | tee -a "$LOG/quick.log"
left $(( end - 100 )) && env $switch=1 timeout 100 compute-sanitizer --tool memcheck python3 -c "
import torch, tconv
torch.backends.cudnn.allow_tf32 = True
x = torch.randn(2, 128, 6, 8, 20, device='cuda').contiguous(memory_format=torch.channels_last_3d)
w = torch.randn(128, 64, 2, 2, 2, device='cuda', requires_grad=True)
out = tconv.conv_transpose3d(x, w, None, 2)
out.backward(torch.randn_like(out))
torch.cuda.synchronize()
print('grad_weight', w.grad.norm().item())
" > "$LOG/memcheck_rows_cl.log" 2>&1
grep -E "ERROR SUMMARY|grad_weight" "$LOG/memcheck_rows_cl.log" | tail -2
for problem in real_dcgan_up real_unet3d_up_block; do
  for value in 1 0; do
    left $(( end - 45 )) && LAYOUT=channels_last quick_time "rows_cl_$value" $problem tf32 auto $switch=$value \
      | tee -a "$LOG/quick.log"
  done
done
breakdowns_ab $(( end - 120 )) $switch "1" "grad_weight" tf32 channels_last real_unet3d_up real_vae_up
left $(( end - 90 )) && gpu_tests 90 tma_wide tests/test_gather_tma_gpu.py fp32_in_place_wide
for problem in real_vae_up real_unet3d_up; do
  for value in 1 0; do
    left $(( end - 45 )) && LAYOUT=channels_last quick_time "in_place_wide_$value" $problem tf32 auto \
      TCONV_TMA_FP32_IN_PLACE_WIDE=$value | tee -a "$LOG/quick.log"
  done
done
left $(( end - 120 )) && gpu_tests 120 tma_rest tests/test_gather_tma_gpu.py "not fp32_in_place and not tma_gather_meets \
and not tma_direct_meets and not tma_window_meets and not unequal_phases"
device_finish
