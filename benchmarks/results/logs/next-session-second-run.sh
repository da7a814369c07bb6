#!/usr/bin/env bash
# Prepared in session 92 for the next session's second GPU call (one H200, warm after next-session-first-run.sh;
# rename to sessionNN-runMMM.sh when it runs, fix these lines, commit BEFORE the call, pass TCONV_COMMIT=<sha>).
# 1. The staged weight pack: fp32 (its code reshaped in session 92: 46 registers where it had 59) and the fp16/bf16
#    form (TCONV_PACK_STAGED_16BIT=1, written after session 92's device time), each bit for bit against the
#    per-element pack; DCGAN's kernels under the 16-bit form (bf16 packs 2 x 0.020 ms per fwd+bwd in run 495,
#    predicted ~2 x 0.006).
# 2. A verified fam06 row under TCONV_GRAD_WEIGHT_TMA_CI64=1 (if the first call's forms test passed).
# 3. ncu's per-instruction stall samples of DCGAN's TMA grad_weight (run 495: 9.4 of 13.9 cycles between issues on
#    an L1TEX scoreboard dependency, tensor pipe 38 %, L2 28 %; the m64n128 form changed nothing).
# 4. L2-61 TF32 (issue 5; last verified 1.262 / 4.565 ms) while the call has time.
source scripts/device_prelude.sh
left 200 && gpu_tests 180 pack tests/test_pack_weight_gpu.py "staged_pack"
for staged in 0 1; do
  left 260 && TCONV_PACK_STAGED_16BIT=$staged timeout 40 python3 scripts/kernel_breakdown.py real_dcgan_up \
    --precision bf16 --layout channels_last --iters 3 2>&1 | grep -v Warn | sed "s/^==/== pack16_$staged/" \
    >> "$LOG/breakdown.log"
done
grep -A6 "^== pack16" "$LOG/breakdown.log" 2>/dev/null | cut -c1-150
export TCONV_GRAD_WEIGHT_TMA_CI64=1  # (exported: a prefix assignment's reach into a shell function's children varies)
left 320 && bench_budget 360 bf16 channels_last fam06_convt2d_k3x5_128x256
unset TCONV_GRAD_WEIGHT_TMA_CI64
left 360 && timeout 90 ncu --clock-control none -k "regex:grad_weight_tma_kernel" --launch-skip 1 --launch-count 1 \
  --section WarpStateStats --section SourceCounters --page source --csv --print-source sass \
  python3 scripts/quick_timing.py real_dcgan_up --precision bf16 --layout channels_last --runs 1 --warmup 1 \
  > "$LOG/ncu_dcgan_grad_weight_tma_source.csv" 2>&1
wc -l "$LOG/ncu_dcgan_grad_weight_tma_source.csv"
bench_budget 580 tf32 contiguous l2_61_convt3d_relu_groupnorm
device_finish
