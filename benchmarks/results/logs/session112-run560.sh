#!/usr/bin/env bash
# Prepared in session 111 for the next session's first call (run 560), one H100 or H200, cold; TCONV_COMMIT=<full
# sha>, END_S=<seconds it may run>. Runs 558-559 (H100, f40bff6): TF32 channels_last trails cuDNN's best on the
# unit-stride 3D shapes (L2-61 fwd 3.775 ms, 0.66x cuDNN-b, fwd+bwd 0.79x eager; fam03 fwd 0.38x cuDNN-b): "auto"
# runs them on the cp.async mma.sync gathers (L2-61: grad_input 4.325, forward 3.318, grad_weight 2.289 ms).
# 1. Quick timing of L2-61 and fam03, TF32 channels_last, under "auto" and the forced algorithms that reach wgmma
#    kernels (igemm_tma: the TF32-rounding channels-last copy, partial boxes; igemm_tma_window; igemm_tma_direct: the
#    boxes read in place, rounded in registers; unit_stride_mma). Predicted: some form at 1.5-2.5x "auto"'s forward;
#    forced forms ignore the 10 % copy budget, so a win there still needs a form within it.
# 2. Kernel breakdowns of L2-61 under "auto" and the two fastest forced forms seen in past runs (igemm_tma_direct,
#    igemm_tma_window): which kernel each pass reaches.
# 3. The TF32 channels_last suite rows while time remains (the first suite-wide TF32 channels_last measurement).
source scripts/device_prelude.sh
end=${END_S:-570}
algorithms="auto igemm_tma igemm_tma_window igemm_tma_direct unit_stride_mma"
for problem in l2_61_convt3d_relu_groupnorm fam03_convt3d_k3_64x64x64; do
  left $(( end - 150 )) && (cd scripts && timeout 140 python3 quick_timing.py $problem --precision tf32 \
    --layout channels_last --algorithm $algorithms --runs 10 --warmup 2 2>&1 | grep -v Warn | tee -a "$LOG/quick.log")
done
for algorithm in auto igemm_tma_direct igemm_tma_window; do
  left $(( end - 40 )) && timeout 40 python3 scripts/kernel_breakdown.py l2_61_convt3d_relu_groupnorm \
    --precision tf32 --layout channels_last --iters 2 --algorithm $algorithm 2>&1 | grep -v Warn >> "$LOG/breakdown.log"
done
grep -A6 "^==" "$LOG/breakdown.log" 2>/dev/null | cut -c1-150
bench_budget $end tf32 channels_last --suite all
device_finish
