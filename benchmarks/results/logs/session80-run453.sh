#!/usr/bin/env bash
# Session 80, run 453 (one H200, the session's last device time: ~530 s held in all); TCONV_COMMIT is this commit's
# full sha, passed by the caller.
# Run 452: on channels-last bf16 the mma.sync grad_weight (tconv_igemm_grad_weight_tf32_kernel) took 2.36 of DCGAN's
# 2.64 ms of kernels per fwd+bwd, 4.04 of VAE's 5.24, 2.11 of U-Net 3D's 2.68: each thread copies one position of
# several channel rows, so a warp's copies were 32 positions C elements apart. Now, where x and grad_output are both
# channels-innermost, neighbouring threads take neighbouring channels (the same copies into the same places).
# Predicted: a warp's load touches 4 sectors instead of 32 (x) and 1-2 instead of 32 (the strip's tail), so the pass
# should fall several-fold, towards its contiguous time (DCGAN ~0.27 ms).
# The wgmma grad_weight's grad_output strip copies take the same order where grad_output is channels-innermost.
# 1. tests: channels-last inputs with channels-last grad_outputs on the grid, bf16 and TF32, "igemm_mma" (which keeps
#    grad_weight on the mma.sync kernel), "igemm" (wgmma where it runs) and "auto";
# 2. verified channels-last bf16 rows: DCGAN, VAE, U-Net 3D, then L2-61 and L1-71 while the time budget lasts (one
#    process; each row lands in the JSON as it completes).
source scripts/device_prelude.sh
left 330 && gpu_tests 80 cl_grads tests/test_conv_transpose_gpu.py "channels_last_grads and (bf16 or tf32)"
budget=$(( 405 - ($(date +%s) - start) ))
[ "$budget" -gt 20 ] && timeout $(( budget + 40 )) python3 -m tconv bench real_dcgan_up real_vae_up real_unet3d_up \
  l2_61_convt3d_relu_groupnorm l1_71_convt2d_asym_input_square_kernel --precision bf16 --layout channels_last \
  --no-compile --runs 20 --warmup 3 --time-budget "$budget" --out "$OUT" 2>&1 \
  | grep -vE "^\s*$" | tee "$LOG/bench_channels_last.log" | grep -v "^chart\|^results\|^resume"
find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
rm -f "$OUT"/*.png
device_finish
