#!/usr/bin/env bash
# Session 91, run 492 (one H200, cold call). Run 491 (host_overhead.py, channels-last bf16): tconv's host per fwd+bwd
# DCGAN 0.877 ms against 0.409 of GPU, U-Net 3D 0.843 / 0.396, VAE 0.554 / 0.650 (torch's own 0.37 / 0.24 / 0.30);
# the entry points took 0.14-0.15 ms of it, the rest is Python. So the verified rows of run 490 timed the host (VAE
# fwd+bwd 0.897, p20-p80 0.78-1.01). New: the native backward (tconv/_ops.py, C++ `backward`): a signature's later
# backwards as one C++ call (allocation, the three "auto" passes, the side stream). Here:
# 1. its test against the Python path (bit for bit, needed grads only, the caller's stream, the phase-split refusal)
#    and the Python path's concurrency tests, which now switch it off;
# 2. host per fwd+bwd with it on / off (TCONV_NATIVE_BACKWARD, read at import): predicted -0.1 to -0.2 ms;
# 3. verified rows (bench's verify runs two trials per signature: the second takes the native call), channels-last
#    bf16 then contiguous TF32, of the sub-millisecond real-model rows.
source scripts/device_prelude.sh
left 200 && gpu_tests 90 native tests/test_conv_transpose_gpu.py \
  "native_backward or concurrent_backward_matches or persistent_grad_input_keeps"
left 260 && gpu_tests 40 fused_concurrent tests/test_fused_gpu.py "runs_the_conv_passes_concurrently"
for problem in real_dcgan_up real_unet3d_up real_vae_up; do
  for native in 1 0; do
    left 330 && (cd scripts && TCONV_NATIVE_BACKWARD=$native timeout 40 python3 host_overhead.py $problem \
      --precision bf16 --layout channels_last --iters 40 2>&1 | grep "per fwd" | sed "s/^/native$native /")
  done
done | tee "$LOG/host.log"
bench_budget 470 bf16 channels_last real_vae_up real_dcgan_up real_unet3d_up real_unet3d_up_block real_hifigan_up
mv "$LOG/bench_channels_last.log" "$LOG/bench_bf16_channels_last.log"
bench_budget 580 tf32 contiguous real_vae_up real_dcgan_up real_unet3d_up real_unet3d_up_block real_hifigan_up
device_finish
