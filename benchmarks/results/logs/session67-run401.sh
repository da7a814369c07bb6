#!/usr/bin/env bash
# Session 67, run 401 (one H200), prepared in session 66:
# 1. The GPU tests at session 66's final swap rule (they last ran at run 399's): the swapped grid (now also under the
#    rule, bitwise against the forced swap), the shifted-x grid (a call may reach the kernel swapped: swap_admits) and
#    its planning test; memcheck of sanitize_small.py's shifted-x kernels (its swapped case among them).
# 2. The swap on 2D rows, untimed so far (the rule is 3D only): quick_timing under TCONV_GRAD_WEIGHT_SWAP=1 and 0 on
#    fam01, fam05, fam06, fam11, L1-71 in bf16 and TF32. A win there extends grad_weight_swaps beyond kernel D > 1.
# 3. L2-61 and fam03 TF32 with TCONV_GRAD_WEIGHT_SHIFTED_X_FP32_OVER_WGMMA=1 (the shifted-x kernel allowed where the
#    wgmma / mma.sync one would run; the rule then swaps L2-61: W_out 32 in one unit) against the default.
# Pass TCONV_COMMIT=<literal sha> (not $(git rev-parse HEAD): the device's copy answers with an older HEAD).
# Each part starts only if its timeout ends by ~570 s, so device_finish always runs; what is dropped runs next call.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 200 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k "grad_weight_swapped or grad_weight_shifted_x" \
  --tb=short > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest.log" | tail -12
left 450 && timeout 120 compute-sanitizer --tool memcheck --kernel-name kns=shifted_x python3 tests/sanitize_small.py \
  > "$LOG/memcheck.log" 2>&1; tail -2 "$LOG/memcheck.log"
echo "== timing at $(( $(date +%s) - start )) s"
for swap in 0 1; do
  left 480 && (cd scripts && TCONV_GRAD_WEIGHT_SWAP=$swap timeout 90 python3 quick_timing.py \
    fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256 fam11_convt2d_k3x7_p1x3_512x1024 \
    l1_71_convt2d_asym_input_square_kernel --precision bf16 tf32 --runs 8 --warmup 2 \
    --json "$LOG/swap2d_$swap.json" 2>&1 | grep -v Warn | sed "s/^/SWAP=$swap /") | tee -a "$LOG/timing_swap2d.log"
done
for over in 0 1; do
  left 525 && (cd scripts && TCONV_GRAD_WEIGHT_SHIFTED_X_FP32_OVER_WGMMA=$over timeout 45 python3 quick_timing.py \
    l2_61_convt3d_relu_groupnorm fam03_convt3d_k3_64x64x64 --precision tf32 --runs 8 --warmup 2 \
    --json "$LOG/fp32_over_wgmma_$over.json" 2>&1 | grep -v Warn | sed "s/^/OVER=$over /") | tee -a "$LOG/timing_over.log"
done
device_finish
