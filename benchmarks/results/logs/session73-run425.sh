#!/usr/bin/env bash
# Session 73, run 425 (one H200; the session's last device time). Run at the commit that adds this name, passed as
# TCONV_COMMIT.
# 1. Tests: the wgmma unit-stride grad_weight against float64 (run 424's fault with one tap fixed: a warpgroup's
#    unused taps read tap 0's window), the mma.sync kernel's cases under the new rule (UnitStrideWgmmaGradWeightAutoRule:
#    > 32 output channels, > 15 taps), the kernel choice; the 16-bit strip grad_weight grid (poisoned) under its new
#    default form 3 (A M-major), which so far ran only in the forms test.
# 2. Verified bf16 rows of fam05 (the wgmma grad_weight: 3.631 -> 3.079 ms quick) and HiFi-GAN (form 3 the default);
#    quick timing of fam05, fam11 and fam01 bf16 under "auto" (the rule's choices); memcheck of the wgmma kernel.
source scripts/device_prelude.sh
left 330 && timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "unit_stride_wgmma_grad_weight or unit_stride_mma_grad_weight or strip_grad_weight_16bit or \
strip_kernels_run_where_planned" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
bench_rows 560 fam05_convt2d_k3x7_512x512:bf16:60 real_hifigan_up:bf16:60
left 560 && (cd scripts && timeout 40 python3 quick_timing.py fam05_convt2d_k3x7_512x512 fam11_convt2d_k3x7_p1x3_512x1024 \
  fam01_convt2d_k3_1024x1024 --precision bf16 --runs 10 --warmup 2 --json "$LOG/t_auto.json" 2>&1 | grep -v Warn) \
  | tee "$LOG/timing.log"
left 600 && TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=1 timeout 40 compute-sanitizer --tool memcheck \
  --kernel-name kns=unit_stride_wgmma python3 tests/sanitize_small.py > "$LOG/memcheck.log" 2>&1
[ -f "$LOG/memcheck.log" ] && tail -1 "$LOG/memcheck.log"
device_finish
