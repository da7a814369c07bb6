#!/usr/bin/env bash
# Session 82, run 457 (one H200, the session's first device call; prepared in session 81); TCONV_COMMIT is this
# commit's full sha, passed by the caller.
# Session 81 (runs 454-456) took channels-last bf16 from 0.57x / 0.54x eager (geomean of 5 rows) to 1.08x / 0.69x:
# the TMA grad_weight and in-place partial boxes by default, the TMA gather's epilogue by shifts and four-channel
# stores, two blocks per SM for in-place short-K and 64-column calls. Written after its device time, not run on a GPU:
# - test_tma_gather_paired_tiles_switch (run 456's test step ran out of time before it), now with
#   TCONV_TMA_SHORT_WIDE (short-K calls of >= 256 columns on two 128-column short tiles: VAE's grad_input);
# - TCONV_TMA_SHORT_ITERATIONS (the short tile's K-loop bound, 8 unset): a sweep of 16 on DCGAN/U-Net;
# - the 16-bit TMA window ("igemm_tma_window"; "auto" under TCONV_TMA_WINDOW_16BIT=1) on channels-last sources read
#   in place, and the window's channels-innermost epilogue (TF32 too). Predicted: L1-71's forward (per-tap boxes:
#   ~8 GB through L2 a pass, 1.31 ms against eager's 0.37) at least halves on the window, L1-68 likewise.
# 1. tests: the paired tiles' switches, the 16-bit window (contract, kernels, auto switch), the TF32 window into
#    channels-last outputs;
# 2. channels-last bf16 timings: L1-71, L1-68, fam03 per-tap against the window; VAE against TCONV_TMA_SHORT_WIDE=1,
#    U-Net 3D and DCGAN against TCONV_TMA_SHORT_ITERATIONS=16 (each part only if its time is left);
# 3. kernel breakdowns of the channels-last backward (DCGAN 0.656 ms of backward against eager's ~0.35, U-Net 3D).
# If the window wins and passes: make it the rule for 16-bit in place (TmaWindowAutoRule's bounds measured on bf16),
# then verified channels-last rows of all 18 4-D/5-D problems (next-session-second-run.sh).
source scripts/device_prelude.sh
left 330 && gpu_tests 100 paired tests/test_gather_tma_gpu.py "paired or window_16bit"
left 380 && gpu_tests 50 window_cl tests/test_gather_tma_gpu.py "tma_window_meets and channels_last"
{
  for problem in l1_71_convt2d_asym_input_square_kernel l1_68_convt3d_square_input_asym_kernel \
      fam03_convt3d_k3_64x64x64; do
    left 460 && LAYOUT=channels_last quick_time per_tap "$problem" bf16 auto
    left 470 && LAYOUT=channels_last quick_time window "$problem" bf16 igemm_tma_window
  done
  left 480 && LAYOUT=channels_last quick_time default real_vae_up bf16 auto
  left 490 && LAYOUT=channels_last quick_time short_wide real_vae_up bf16 auto TCONV_TMA_SHORT_WIDE=1
  for problem in real_unet3d_up real_dcgan_up; do
    left 500 && LAYOUT=channels_last quick_time default "$problem" bf16 auto
    left 510 && LAYOUT=channels_last quick_time short_16 "$problem" bf16 auto TCONV_TMA_SHORT_ITERATIONS=16
  done
} | tee "$LOG/timing.log"
for problem in real_dcgan_up real_unet3d_up; do
  left 520 && timeout 30 python3 scripts/kernel_breakdown.py "$problem" --precision bf16 --layout channels_last \
    --iters 3 2>&1 | grep -v Warn
done > "$LOG/breakdown.log" 2>&1
head -c 4000 "$LOG/breakdown.log"
device_finish
