#!/usr/bin/env bash
# Session 75, run 431 (one H200; the session's first call). Run at the commit that adds this name, passed as
# TCONV_COMMIT. Prepared in session 74 (its items 1 and 3), with the verified bf16 rows moved to the second call and a
# TF32 census in their place.
# 1. Tests: the wgmma grad_weight against float64 in its processes (session 74 removed the overlap form from the
#    plain kernel after its last GPU run; the plain kernel's registers are unchanged), the rule's choices.
# 2. fam06 (64 -> 128, 15 taps) and fam04 (1D, 128 -> 128, 3 taps) bf16 with the unit-stride grad_weight forced
#    (TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=1, outside its rule's 64 channels) onto the wgmma form, against "auto"
#    (shifted-x). Run 424's plain wgmma form lost on fam06 (3.922 -> 5.080); the specialized form is ~2x faster.
# 3. A TF32 kernel census of the suite's weakest TF32 fwd+bwd rows, tconv and the original Model under
#    cudnn.benchmark, to pick the next TF32 pass to attack (issue 4's 2.43x against 3x).
source scripts/device_prelude.sh
left 330 && timeout 110 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "unit_stride_wgmma_grad_weight or unit_stride_mma_grad_weight_where_planned" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
for problem in fam06_convt2d_k3x5_128x256 fam04_convt1d_k3_65536; do
  left 470 && (cd scripts && timeout 25 python3 quick_timing.py $problem --precision bf16 --runs 10 --warmup 2 2>&1 \
    | grep -v Warn | sed "s/^/auto /")
  left 470 && (cd scripts && TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=1 TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=1 timeout 25 \
    python3 quick_timing.py $problem --precision bf16 --runs 10 --warmup 2 2>&1 | grep -v Warn | sed "s/^/forced /")
done | tee "$LOG/timing.log"
weak="fam01_convt2d_k3_1024x1024 fam04_convt1d_k3_65536 fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256
  real_hifigan_up real_dcgan_up l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024"
left 480 && (cd scripts && timeout 100 python3 kernel_breakdown.py $weak --precision tf32 --iters 3 \
  --json "$LOG/census_tf32.json" 2>&1 | grep -v Warn) > "$LOG/census_tf32.log"
left 520 && (cd scripts && timeout 75 python3 kernel_breakdown.py $weak --precision tf32 --iters 3 --model original \
  --cudnn-benchmark --json "$LOG/census_tf32_cudnn.json" 2>&1 | grep -v Warn) > "$LOG/census_tf32_cudnn.log"
for f in census_tf32 census_tf32_cudnn; do [ -f "$LOG/$f.log" ] && grep -E "^==" "$LOG/$f.log" | cut -c1-150; done
device_finish
