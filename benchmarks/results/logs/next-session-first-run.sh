#!/usr/bin/env bash
# Prepared in session 92 for the next session's first GPU call (one H200, cold; rename to sessionNN-runMMM.sh when it
# runs, fix these lines, commit BEFORE the call, pass TCONV_COMMIT=<literal full sha>).
# Session 92 (runs 495-498) found a user-facing bug: a process whose backwards need grad_weight alone (x without
# grad, as a network's first layer) had the channels-last 16-bit TMA grad_weight fail with "launch failed: invalid
# argument" on every call, while every process where a backward with grad_input ran first passed (run 498). Written
# after the device time (compiled, not run): torch_check.h's bind_primary_context at every entry point (the
# suspected cause: no CUDA context bound on the autograd engine's device thread before the pass's first
# cudaFuncSetAttribute; TCONV_BIND_CONTEXT=0 skips it), and TCONV_REPORT_PENDING_CUDA_ERRORS=1, which prints an error
# found pending before the TMA grad_weight's launch or the step that failed. Here:
# 1. the regression test (binding on) and the mechanism under TCONV_BIND_CONTEXT=0 / 1 with the report on;
# 2. the forms test of the TMA grad_weight's development forms, which failed in run 495 only through that bug (run
#    497's probe ran every form on every case with the default form's error against float64): if it passes, CI64
#    (fam06's TMA grad_weight 3.156 -> 2.717 ms, run 497) becomes the rule; a verified fam06 row under it;
# 3. ncu's per-instruction stall samples of DCGAN's TMA grad_weight (run 495: 9.4 of 13.9 cycles between issues on an
#    L1TEX scoreboard dependency, tensor pipe 38 %, L2 28 %; the m64n128 form changed nothing, so shared-memory reads
#    do not bound it): which instruction waits;
# 4. the 16-bit staged weight pack (TCONV_PACK_STAGED_16BIT=1, written after session 92's device time): its bitwise
#    test against the per-element pack, and DCGAN's kernels under it (bf16 packs 2 x 0.020 ms per fwd+bwd in run 495;
#    predicted ~2 x 0.006);
# 5. L2-61 TF32 (issue 5; last verified 1.262 / 4.565 ms) while the call has time.
source scripts/device_prelude.sh
timeout 120 python3 -m pytest -q -s -p no:cacheprovider tests/test_grad_weight_tma_gpu.py \
  -k "weight_only_backward or fresh_thread" > "$LOG/weight_only.log" 2>&1
grep -E "tconv:|passed|failed|^E  " "$LOG/weight_only.log" | head -12 | cut -c1-250
cp benchmarks/results/logs/run498/weight_only_first.py /tmp/weight_only_first.py
for bind in 0 1; do
  for args in "0 0 dcgan_like" "0 0 asym_3d"; do
    TCONV_BIND_CONTEXT=$bind TCONV_REPORT_PENDING_CUDA_ERRORS=1 TCONV_GRAD_WEIGHT_WINDOW=0 timeout 40 \
      python3 /tmp/weight_only_first.py $args 2>&1 | grep -E "^\[|tconv:" | sed "s/^/bind_$bind /" | cut -c1-220 \
      | tee -a "$LOG/mechanism.log"
  done
done
left 300 && gpu_tests 200 forms tests/test_grad_weight_tma_gpu.py "forms_meet"
# the staged weight pack: fp32 (its code reshaped in session 92) and the 16-bit form, each against the per-element one
left 330 && gpu_tests 150 pack16 tests/test_pack_weight_gpu.py "staged_pack"
for staged in 0 1; do
  left 380 && TCONV_PACK_STAGED_16BIT=$staged timeout 40 python3 scripts/kernel_breakdown.py real_dcgan_up \
    --precision bf16 --layout channels_last --iters 3 2>&1 | grep -v Warn | sed "s/^==/== pack16_$staged/" \
    >> "$LOG/breakdown.log"
done
grep -A6 "^== pack16" "$LOG/breakdown.log" | cut -c1-150
export TCONV_GRAD_WEIGHT_TMA_CI64=1  # (exported: a prefix assignment's reach into a shell function's children varies)
left 420 && bench_budget 460 bf16 channels_last fam06_convt2d_k3x5_128x256
unset TCONV_GRAD_WEIGHT_TMA_CI64
left 460 && timeout 90 ncu --clock-control none -k "regex:grad_weight_tma_kernel" --launch-skip 1 --launch-count 1 \
  --section WarpStateStats --section SourceCounters --page source --csv --print-source sass \
  python3 scripts/quick_timing.py real_dcgan_up --precision bf16 --layout channels_last --runs 1 --warmup 1 \
  > "$LOG/ncu_dcgan_grad_weight_tma_source.csv" 2>&1
wc -l "$LOG/ncu_dcgan_grad_weight_tma_source.csv"
bench_budget 580 tf32 contiguous l2_61_convt3d_relu_groupnorm
device_finish
