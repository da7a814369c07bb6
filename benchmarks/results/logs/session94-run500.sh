#!/usr/bin/env bash
# Session 94's first GPU call, run 500 (one H200, cold; prepared in session 92 as next-session-second-run.sh).
# Run 499 (session 93) verified the context-binding fix, passed the TMA grad_weight's forms test and showed the pair
# form correct but slower. Since then CI64 (one x box a stage where a group has at most 64 input channels) is the
# default (TCONV_GRAD_WEIGHT_TMA_CI64=0 keeps two boxes). Here:
# 1. a verified fam06 row under the default (run 497's breakdown: its TMA grad_weight 3.156 -> 2.717 ms);
# 2. the forms test again (its N128 pair now pins CI64=0 in both processes) and the TMA grad_weight's other tests
#    under the new default;
# 3. the staged weight pack: fp32 (reshaped in session 92: 46 registers where it had 59) and the fp16/bf16 form
#    (TCONV_PACK_STAGED_16BIT=1), each bit for bit against the per-element pack; DCGAN's kernels under the 16-bit
#    form (bf16 packs 2 x 0.020 ms per fwd+bwd in run 495, predicted ~2 x 0.006);
# ncu's stall samples of DCGAN's TMA grad_weight and L2-61 TF32 moved to the warm call after it (run 501).
source scripts/device_prelude.sh
bench_budget 220 bf16 channels_last fam06_convt2d_k3x5_128x256
left 230 && gpu_tests 185 tma_grad_weight tests/test_grad_weight_tma_gpu.py "not pair_meets"
left 420 && gpu_tests 75 pack tests/test_pack_weight_gpu.py "staged_pack"
for staged in 0 1; do
  left 540 && TCONV_PACK_STAGED_16BIT=$staged timeout 40 python3 scripts/kernel_breakdown.py real_dcgan_up \
    --precision bf16 --layout channels_last --iters 3 2>&1 | grep -v Warn | sed "s/^==/== pack16_$staged/" \
    >> "$LOG/breakdown.log"
done
grep -A6 "^== pack16" "$LOG/breakdown.log" 2>/dev/null | cut -c1-150
device_finish
