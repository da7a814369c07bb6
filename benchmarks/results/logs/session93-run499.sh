#!/usr/bin/env bash
# Session 93's first GPU call, run 499 (one H200, cold; prepared in session 92). next-session-second-run.sh follows
# it (warm).
# Session 92 (runs 495-498) found a user-facing bug: a process whose backwards need grad_weight alone (x without
# grad, as a network's first layer) had the channels-last 16-bit TMA grad_weight fail with "launch failed: invalid
# argument" on every call, while every process where a backward with grad_input ran first passed (run 498). Written
# after the device time (compiled, not run): torch_check.h's bind_primary_context at every entry point (the
# suspected cause: no CUDA context bound on the autograd engine's device thread before the pass's first
# cudaFuncSetAttribute; TCONV_BIND_CONTEXT=0 skips it), and TCONV_REPORT_PENDING_CUDA_ERRORS=1, which prints an error
# found pending before the TMA grad_weight's launch or the step that failed. Here:
# 1. the regression tests (weight-only first backward; forward and backward from a fresh thread) with the binding on,
#    and the mechanism under TCONV_BIND_CONTEXT=0 / 1 with the report on;
# 2. the forms test of the TMA grad_weight's development forms, which failed in run 495 only through that bug (run
#    497's probe ran every form on every case with the default form's error against float64): if it passes, CI64
#    (fam06's TMA grad_weight 3.156 -> 2.717 ms, run 497) becomes the rule;
# 3. the pair form (TCONV_GRAD_WEIGHT_TMA_PAIR=1: clusters of 2 blocks sharing x or grad_output boxes by TMA
#    multicast; written after session 92's device time): its contract and bitwise test, each process at most 120 s
#    (a pipeline that never completes times out), then DCGAN's and VAE's kernels under it (predicted, if box rows
#    bound the pass: 256 -> 192 rows a stage an SM, DCGAN's pass 0.186 -> ~0.14 ms).
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
left 300 && gpu_tests 160 forms tests/test_grad_weight_tma_gpu.py "forms_meet"
left 400 && gpu_tests 240 pair tests/test_grad_weight_tma_gpu.py "pair_meets"
for pair in 0 1; do
  for problem in real_dcgan_up real_vae_up; do
    left 520 && TCONV_GRAD_WEIGHT_TMA_PAIR=$pair timeout 40 python3 scripts/kernel_breakdown.py $problem \
      --precision bf16 --layout channels_last --iters 3 2>&1 | grep -v Warn | sed "s/^==/== pair_$pair/" \
      >> "$LOG/breakdown.log"
  done
done
grep -A3 "^== pair" "$LOG/breakdown.log" 2>/dev/null | cut -c1-150
device_finish
