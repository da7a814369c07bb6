#!/usr/bin/env bash
# Session 94's third GPU call, run 502 (one H200). Since run 501: the staged weight pack is fp16/bf16's default too
# (its bitwise test passed in run 500; DCGAN's packs 2 x 0.020 -> 2 x 0.017 ms). Here:
# 1. the pack tests and the gather GEMMs' 16-bit tests under the new default;
# 2. kernel breakdowns with TCONV_PACK_STAGED_16BIT=0 / 1 on the other bf16 shapes whose weights pack (VAE, U-Net 3D,
#    L2-61, L1-68; channels-last): the flip stays only if no pack is slower;
# 3. L2 traffic of DCGAN's TMA grad_weight (run 501's stall samples: 54 % of all samples are the MMA warps waiting on a
#    stage's full barrier, the producer spinning on empty ones: operand delivery bounds the pass). By the byte count a
#    block reads ~8.4 MB from L2 (x 4.2, grad_output 4.2), 1.07 GB over 128 blocks in 187 us = ~5.7 TB/s, while run
#    495's ncu read "L2 27.9 %": ncu's bytes and rates of L2 and of the L2-to-SM crossbar say which;
# 4. a verified DCGAN bf16 channels-last row under the new defaults.
source scripts/device_prelude.sh
left 150 && gpu_tests 75 pack tests/test_pack_weight_gpu.py "staged_pack"
for problem in real_vae_up real_unet3d_up l2_61_convt3d_relu_groupnorm l1_68_convt3d_square_input_asym_kernel; do
  for staged in 0 1; do
    left 330 && TCONV_PACK_STAGED_16BIT=$staged timeout 40 python3 scripts/kernel_breakdown.py $problem \
      --precision bf16 --layout channels_last --iters 2 2>&1 | grep -v Warn | sed "s/^==/== pack16_$staged/" \
      >> "$LOG/breakdown.log"
  done
done
grep -E "^== pack16|pack_weight" "$LOG/breakdown.log" 2>/dev/null | cut -c1-150
left 400 && timeout 60 ncu --clock-control none -k "regex:grad_weight_tma_kernel" --launch-skip 0 --launch-count 1 \
  --metrics gpu__time_duration.sum,lts__t_bytes.sum,lts__t_bytes.sum.per_second,lts__t_sector_hit_rate.pct,\
lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__m_xbar2l1tex_read_bytes.sum,\
l1tex__m_xbar2l1tex_read_bytes.sum.per_second,dram__bytes_read.sum \
  python3 scripts/quick_timing.py real_dcgan_up --precision bf16 --layout channels_last --runs 1 --warmup 1 \
  > "$LOG/ncu_dcgan_grad_weight_tma_l2.txt" 2>&1
grep -E "gpu__|lts__|l1tex__|dram__|ERR" "$LOG/ncu_dcgan_grad_weight_tma_l2.txt" | head -12
bench_budget 520 bf16 channels_last real_dcgan_up
device_finish
