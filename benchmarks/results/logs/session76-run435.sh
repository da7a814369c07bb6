#!/usr/bin/env bash
# Session 76, run 435 (one H200; prepared in session 75). Run at the commit that adds this name, passed as
# TCONV_COMMIT.
# Session 75's question: what limits the TF32 shifted-x grad_weight (L1-71 1.08 ms at 72 TF/s, fam01 4.33, fam05
# 2.43, fam06 2.53, fam11 2.26: the largest TF32 pass left on five suite rows)? Run 434's ncu of L1-71: tensor pipe
# 30 %, ~1930 cycles a 32-position unit against 576 of wgmmas, long-scoreboard stalls first (2.93 an issue; the main
# loop has no global loads, so likely the mbarrier waits), and run 433's two-slot packing (fewer wgmmas) lost: the
# consumers wait for data. Counted (notes/perf.md, Session 75): 4 stages of 51.2 KB, a slot released 2 units late by
# the sliding grad_output rows, so the producer runs 1 unit ahead.
# 1. The narrow form written in session 75 without a GPU (TCONV_GRAD_WEIGHT_SHIFTED_X_NARROW=1: 32-channel grad_output
#    rows, 6 stages instead of 4 at unit 32, for at most 32 output channels): its test (the measured kernel's bits,
#    the contract, the launches).
# 2. TF32 fwd+bwd quick timings, "auto" against TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE=0 (no sliding: 3 units ahead, 3x
#    the grad_output row loads) and, on L1-71 and fam11, against the narrow form: if either wins, the lookahead is the
#    limit (then the row ring of notes/perf.md's Session 75 for 64 channels too).
# 3. Nsight Compute's per-instruction stall samples of L1-71's shifted-x kernel (scripts/ncu_source.sh, read by
#    ncu_source_summary.py: which warps wait where: consumers at full/ready, rounders at full, producer at empty).
source scripts/device_prelude.sh
left 330 && timeout 120 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "shifted_x_narrow or shifted_x_lean_where_switched" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
qt() {  # label, env assignments..., problem
  local label="$1" problem="${@: -1}"; shift
  left 480 && (cd scripts && env "${@:1:$#-1}" timeout 40 python3 quick_timing.py "$problem" --precision tf32 \
    --runs 10 --warmup 2 2>&1 | grep -v Warn | sed "s/^/$label /")
}
{
  for problem in l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024; do
    qt auto TCONV_X=0 $problem
    qt narrow TCONV_GRAD_WEIGHT_SHIFTED_X_NARROW=1 $problem
    qt slide0 TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE=0 $problem
  done
  for problem in fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512; do
    qt auto TCONV_X=0 $problem
    qt slide0 TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE=0 $problem
  done
} | tee "$LOG/timing.log"
# The mbarrier spins show as long-scoreboard samples on the branch after each SYNCS...TRYWAIT (run 114's reading).
left 470 && OUT="$LOG" KERNEL=grad_weight_wgmma_shifted_x \
  CASES="l1_71_shifted_x_tf32:l1_71_convt2d_asym_input_square_kernel:tf32" timeout 100 bash scripts/ncu_source.sh
[ -f "$LOG/src_l1_71_shifted_x_tf32.csv" ] && python3 scripts/ncu_source_summary.py \
  "$LOG/src_l1_71_shifted_x_tf32.csv" --top 20 2>&1 | cut -c1-200 | head -45
device_finish
