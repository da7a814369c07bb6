#!/usr/bin/env bash
# Session 98, run 521 (one H200, cold). Run as TCONV_COMMIT=<sha> bash benchmarks/results/logs/session98-run521.sh
# Run 520 timed the dense grouped grad_input under its switch (bf16 channels-last fwd+bwd ms 0 / 1: L1-73 4.154 /
# 3.592, L1-72 1.082 / 1.011, fam09 1.844 / 2.708; fam09's dense call is the mma.sync gather). It is now the default,
# taken where the dense call runs on a persistent grid (TMA or unit-stride). Here:
# 1. its switch test (kernels differ exactly where the rule takes a case; L1-73's shape taken on Hopper) and the
#    grouped lines tests in 16-bit channels-last at that default;
# 2. verified rows of L1-73, L1-72, fam09 bf16 channels-last at the default (predicted ~3.6 / ~1.0 / 1.84 f+b);
# 3. fam13's forward (0.50 ms against a write floor of ~0.09: 415 MB of bf16 output, 16 of its 25 phases without a
#    tap): quick timings under the forced gather forms, and ncu of "auto"'s kernel (the mma.sync gather) for where
#    its time goes (DRAM throughput, occupancy, stall reasons).
source scripts/device_prelude.sh
left 200 && gpu_tests 150 dense tests/test_conv_transpose_gpu.py \
  "grouped_dense_grad_input_switch or (grouped_mma_lines and channels_last and (bf16 or fp16))"
bench_budget 400 bf16 channels_last l1_73_convt3d_strided_padded_grouped \
  l1_72_convt3d_asym_kernel_strided_padded_grouped fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256
for algo in auto igemm_fold igemm_tma igemm_tma_direct igemm_strip grouped_tiled; do
  left 470 && LAYOUT=channels_last quick_time fam13 fam13_convt2d_k3_s5_p1_d2_64x128 bf16 $algo
done | tee "$LOG/fam13_forms.log"
left 530 && timeout 70 ncu --clock-control none -k "regex:tconv_igemm_gather" --launch-skip 0 --launch-count 1 \
  --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
  --section MemoryWorkloadAnalysis python3 scripts/quick_timing.py fam13_convt2d_k3_s5_p1_d2_64x128 \
  --precision bf16 --layout channels_last --runs 1 --warmup 1 > "$LOG/ncu_fam13_forward.txt" 2>&1
grep -E "Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Block Size|Grid Size|Waves" \
  "$LOG/ncu_fam13_forward.txt" | head -14
device_finish
