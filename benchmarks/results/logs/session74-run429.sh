#!/usr/bin/env bash
# Session 74, run 429 (one H200; the session's last device time). Run at the commit that adds this name, passed as
# TCONV_COMMIT.
# Run 428: the warp-specialized wgmma grad_weight with A from registers took fam05 bf16 fwd+bwd 3.077 -> 2.41 ms
# (kernel 1.406 -> 0.714 ms) and fam11 (forced) 2.033 -> 1.684. Now the default: specialized with A from registers
# above 15 taps, the rule from 32 output channels (fam11 joins). The specialized kernel now takes 3 and 5 taps a
# warpgroup too under TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED=2 (untested).
# 1. Tests: the wgmma grad_weight against float64 in four processes (plain, specialized default, specialized at
#    every tap count, specialized with A from shared memory), the rule's choices; memcheck of the specialized kernel
#    (SPECIALIZED=2: every tap count) on tests/sanitize_small.py.
# 2. Verified bf16 rows of fam05 and fam11 under the new defaults.
# 3. Quick timing of fam01 (9 taps), fam06 (15), L1-71 (9) and fam08 (1D, 5) bf16: "auto" against the wgmma form
#    forced with SPECIALIZED=2 (the plain wgmma form lost on each in run 424).
source scripts/device_prelude.sh
left 330 && timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "unit_stride_wgmma_grad_weight or unit_stride_mma_grad_weight_where_planned" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
left 420 && TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=1 TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED=2 timeout 40 compute-sanitizer \
  --tool memcheck --kernel-name kns=unit_stride_wgmma python3 tests/sanitize_small.py > "$LOG/memcheck.log" 2>&1
[ -f "$LOG/memcheck.log" ] && tail -1 "$LOG/memcheck.log"
bench_rows 530 fam05_convt2d_k3x7_512x512:bf16:60 fam11_convt2d_k3x7_p1x3_512x1024:bf16:60
for problem in fam01_convt2d_k3_1024x1024 fam06_convt2d_k3x5_128x256 l1_71_convt2d_asym_input_square_kernel \
    fam08_convt1d_k5_d3_131072; do
  left 560 && (cd scripts && timeout 25 python3 quick_timing.py $problem --precision bf16 --runs 10 --warmup 2 2>&1 \
    | grep -v Warn | sed "s/^/auto /")
  left 560 && (cd scripts && TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=1 TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED=2 timeout 25 \
    python3 quick_timing.py $problem --precision bf16 --runs 10 --warmup 2 2>&1 | grep -v Warn | sed "s/^/forced2 /")
done | tee "$LOG/timing.log"
device_finish
