#!/usr/bin/env bash
# Session 80, run 450 (one H200), prepared in session 79; TCONV_COMMIT is this commit's full sha, passed by the
# caller.
# Session 79 wrote the TMA gather's copy form for fp16/bf16 data (tconv_igemm_gather_tma16_kernel, only under
# TCONV_GATHER_TMA_16BIT=1), without a GPU: the fp32 kernels' PTX is unchanged (but for symbol names), the 16-bit ones
# compile to the fp32 ones' registers with no spills. Why: DCGAN bf16 runs its forward and grad_input on the cp.async
# 16-bit gathers at ~264 TF/s (0.69x / 0.65x eager), where the TF32 copy form moved DCGAN's TF32 forward from 0.40 to
# 0.218 ms. Predicted: DCGAN bf16 forward ~0.245 -> ~0.13-0.15 ms if it runs as the TF32 form does at twice the rate
# per instruction (the copy and the chunking under the 10 % budget cost part of that).
# 1. its tests (the 16-bit contract on every TMA case under "igemm_tma", which kernel runs, 0 against 1) and the test
#    that 16-bit data stay off it by default;
# 2. fwd+bwd quick timings, switch 0 against 1 ("auto": within the copy budget, in chunks), and "igemm_tma" (the whole
#    batch): DCGAN, VAE and U-Net 3D bf16 (the large-channel strided bf16 rows);
# 3. the verified fam04 TF32 row (lane boxes since session 79; the suite's row, 7.638 ms, is lane 0's) while time is
#    left.
source scripts/device_prelude.sh
left 330 && gpu_tests 200 pytest tests/test_gather_tma_gpu.py "16bit"
{
  left 480 && quick_time off real_dcgan_up bf16 auto TCONV_GATHER_TMA_16BIT=0
  left 480 && quick_time on real_dcgan_up bf16 auto TCONV_GATHER_TMA_16BIT=1
  left 490 && quick_time forced real_dcgan_up bf16 igemm_tma TCONV_GATHER_TMA_16BIT=1
  left 500 && quick_time off real_vae_up bf16 auto TCONV_GATHER_TMA_16BIT=0
  left 500 && quick_time on real_vae_up bf16 auto TCONV_GATHER_TMA_16BIT=1
  left 510 && quick_time off real_unet3d_up bf16 auto TCONV_GATHER_TMA_16BIT=0
  left 510 && quick_time on real_unet3d_up bf16 auto TCONV_GATHER_TMA_16BIT=1
} | tee "$LOG/timing.log"
bench_rows 590 fam04_convt1d_k3_65536:tf32:90
device_finish
