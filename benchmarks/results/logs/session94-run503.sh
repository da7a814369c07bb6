#!/usr/bin/env bash
# Session 94's fourth GPU call, run 503 (one H200). Since run 502: fp16/bf16 weights take the staged pack only where
# they have at most one tap group (16) of taps (run 502: VAE 0.012 -> 0.007 ms, U-Net 3D 0.012 -> 0.008, but L1-68's
# 105 taps 0.008 -> 0.013). Here:
# 1. the pack tests (the 16-bit one: its 27-tap case now packs per element under both values);
# 2. kernel breakdowns of L1-68 (expected: the per-element pack, ~0.008 ms) and VAE (the staged one, ~0.007);
# 3. L2-61 bf16 channels-last: its grad_weight takes the one-x-box TMA form since CI64 became the default (run 502:
#    1.229 ms); a breakdown under TCONV_GRAD_WEIGHT_TMA_CI64=0 for the A/B, then a verified row (session 92: 0.814 /
#    3.037 ms at d28c057).
source scripts/device_prelude.sh
left 150 && gpu_tests 75 pack tests/test_pack_weight_gpu.py "staged_pack"
for problem in l1_68_convt3d_square_input_asym_kernel real_vae_up; do
  left 230 && timeout 40 python3 scripts/kernel_breakdown.py $problem --precision bf16 --layout channels_last \
    --iters 2 2>&1 | grep -v Warn >> "$LOG/breakdown.log"
done
for ci64 in 0 1; do
  left 290 && TCONV_GRAD_WEIGHT_TMA_CI64=$ci64 timeout 40 python3 scripts/kernel_breakdown.py \
    l2_61_convt3d_relu_groupnorm --precision bf16 --layout channels_last --iters 2 2>&1 | grep -v Warn \
    | sed "s/^==/== ci64_$ci64/" >> "$LOG/breakdown.log"
done
grep -E "^==|pack_weight|grad_weight_tma" "$LOG/breakdown.log" 2>/dev/null | cut -c1-150
bench_budget 450 bf16 channels_last l2_61_convt3d_relu_groupnorm
device_finish
