#!/usr/bin/env bash
# Session 92, run 495 (one H200, cold call; prepared in session 91 as next-session-first-run.sh, commit before the call,
# TCONV_COMMIT=<full sha>).
# Session 91 (runs 489-494): the native backward (a signature's later backwards as one C++ call) brought tconv's host
# per channels-last bf16 fwd+bwd to torch's own (DCGAN 1.053 -> 0.556 ms, U-Net 3D 0.550 -> 0.412), and `tconv bench`
# now marks host-bound times (`h`, `*_host_bound`; CPU-tested only). Here:
# 1. DCGAN's kernels per fwd+bwd on the native path (0.408 ms against cuDNN's 0.360: which pass to attack), and ncu
#    of the TMA grad_weight on DCGAN (0.184 ms, ~373 TF/s: 128 blocks of one 128 x 128 tile a tap, one split by the
#    memory budget, ~32 KB from L2 per 1 M MACs: ~5.8 TB/s of L2 reads if it moves them at that rate; is L2 the
#    limit, or shared memory (TMA writes plus m64n64 operand reads: ~190 B/clk at the MMA peak), or latency?);
#    Written after session 91's device time (compiled, register table updated, not run): TCONV_GRAD_WEIGHT_TMA_N128=1,
#    each k16 step as one m64n128 wgmma over both grad_output boxes (B's descriptor: leading byte offset one box,
#    stride byte offset one swizzle atom; if its test fails on values, swap the two in grad_weight_tma first), and
#    TCONV_GRAD_WEIGHT_TMA_CI64=1, one x box a stage where a group has <= 64 input channels (fam06, 64 -> 128: the
#    two-box tile's second warpgroup multiplies zeros, half the MMAs of its ~2 ms grad_weight). Their test, then
#    fwd+bwd A/B timings: N128 pays only if shared memory bounds the pass; CI64 should cut fam06's by ~0.5-1 ms.
#    Also TCONV_GRAD_BIAS_BESIDE_WEIGHT=1 (conv_transpose.cpp, native backward): grad_bias on the side stream beside
#    grad_weight where the passes run one after the other (VAE's grad_bias 0.069 ms of DRAM streaming beside a TMA
#    grad_weight that leaves DRAM idle): the native test under it (bitwise against the Python path), then VAE and
#    U-Net 3D A/B;
# 2. the channels-last bf16 rows that session 90 measured while the host led, re-verified with the native backward
#    (the `h` marks seen on a GPU for the first time); a warm second call resumes the file for the rest of the 18.
source scripts/device_prelude.sh
breakdowns 200 bf16 channels_last real_dcgan_up real_unet3d_up
SECTIONS="--section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis"
SECTIONS+=" --section SchedulerStats --section ComputeWorkloadAnalysis"
left 260 && timeout 80 ncu --clock-control none -k "regex:grad_weight_tma_kernel" --launch-skip 1 --launch-count 1 \
  $SECTIONS python3 scripts/quick_timing.py real_dcgan_up --precision bf16 --layout channels_last --runs 1 \
  --warmup 1 > "$LOG/ncu_dcgan_grad_weight_tma.txt" 2>&1
pattern="Duration|Registers Per|Achieved Occupancy|Memory Throughput|L2 Cache Throughput|L1/TEX Cache Throughput"
pattern+="|Compute \(SM\) Throughput|Warp Cycles Per Issued|No Eligible|Issue Slots"
grep -E "$pattern" "$LOG/ncu_dcgan_grad_weight_tma.txt" | head -16
left 300 && gpu_tests 180 forms tests/test_grad_weight_tma_gpu.py "forms_meet"
for problem in real_dcgan_up real_vae_up real_unet3d_up; do
  for n128 in 0 1; do
    left 440 && LAYOUT=channels_last quick_time "n128_$n128" $problem bf16 auto TCONV_GRAD_WEIGHT_TMA_N128=$n128 \
      | tee -a "$LOG/timing.log"
  done
done
for ci64 in 0 1; do
  left 470 && LAYOUT=channels_last quick_time "ci64_$ci64" fam06_convt2d_k3x5_128x256 bf16 auto \
    TCONV_GRAD_WEIGHT_TMA_CI64=$ci64 | tee -a "$LOG/timing.log"
done
left 480 && TCONV_GRAD_BIAS_BESIDE_WEIGHT=1 gpu_tests 40 bias_beside tests/test_conv_transpose_gpu.py "native_backward"
for problem in real_vae_up real_unet3d_up; do
  for beside in 0 1; do
    left 530 && LAYOUT=channels_last quick_time "beside_$beside" $problem bf16 auto \
      TCONV_GRAD_BIAS_BESIDE_WEIGHT=$beside | tee -a "$LOG/timing.log"
  done
done
bench_budget 580 bf16 channels_last real_dcgan_up real_unet3d_up real_vae_up fam13_convt2d_k3_s5_p1_d2_64x128 \
  fam10_convt3d_k3_s2_p1_d2_16x32x32 fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 \
  l1_71_convt2d_asym_input_square_kernel \
  fam05_convt2d_k3x7_512x512 fam11_convt2d_k3x7_p1x3_512x1024 fam06_convt2d_k3x5_128x256 fam01_convt2d_k3_1024x1024 \
  l2_61_convt3d_relu_groupnorm fam03_convt3d_k3_64x64x64 fam02_convt3d_k3x5x7_16x32x64 fam07_convt3d_k3_96x96x96 \
  l1_68_convt3d_square_input_asym_kernel l1_72_convt3d_asym_kernel_strided_padded_grouped \
  l1_73_convt3d_strided_padded_grouped
device_finish
