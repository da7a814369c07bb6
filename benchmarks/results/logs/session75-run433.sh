#!/usr/bin/env bash
# Session 75, run 433 (one H200). Run at the commit that adds this name, passed as TCONV_COMMIT.
# Run 431's TF32 census: L1-71's grad_weight (the shifted-x kernel, C_out 32: half of every m64 padding) takes 1.08 of
# its 2.41 ms fwd+bwd, fam11's 2.26 of 4.61. The lean shifted-x kernel packs two 32-channel grad_output rows into a
# warpgroup's m64 (TF32 by rule only where that leaves fewer row tiles: fam02 2.49 -> 2.12 ms in run 411; L1-71 and
# fam11 have 3 (kd, kh) rows, one tile either way, so the rule keeps them off it).
# 1. TF32 fwd+bwd quick timings: L1-71 "auto" against TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN=2 (two rounds), =1, and the
#    swapped grad_weight (TCONV_GRAD_WEIGHT_SWAP=1); fam11 "auto" against LEAN=2.
# 2. The strip and grid tests (session 72's second-run script, part 2).
# 3. fam08's verified bf16 row under run 429's rule (run 430's ran past its limit).
source scripts/device_prelude.sh
qt() {  # label, env assignments..., problem
  local label="$1" problem="${@: -1}"; shift
  left 560 && (cd scripts && env "${@:1:$#-1}" timeout 30 python3 quick_timing.py "$problem" --precision tf32 \
    --runs 15 --warmup 3 2>&1 | grep -v Warn | sed "s/^/$label /")
}
L171=l1_71_convt2d_asym_input_square_kernel FAM11=fam11_convt2d_k3x7_p1x3_512x1024
{
  for round in 1 2; do
    qt auto TCONV_X=0 $L171
    qt lean2 TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN=2 $L171
  done
  qt lean1 TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN=1 $L171
  qt swap1 TCONV_GRAD_WEIGHT_SWAP=1 $L171
  qt auto TCONV_X=0 $FAM11
  qt lean2 TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN=2 $FAM11
} | tee "$LOG/timing.log"
left 480 && timeout 80 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "strip or test_grid" > "$LOG/pytest_strip_grid.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_strip_grid.log" | cut -c1-300 | tail -8
bench_rows 590 fam08_convt1d_k5_d3_131072:bf16:60
device_finish
