#!/usr/bin/env bash
# Prepared in session 60; run 376 (session 61, one H200).
# The tiled grouped forward ("grouped_tiled", written without a GPU in session 60: the grouped FFMA kernel with up to
# 32 input channels, output channels in tiles of 16, one launch per tile):
# 1. its contract tests (5 shapes x 4 modes x 3 layouts, poisoned outputs, gradients), the kernel-choice test and the
#    random sweep's grouped_tiled cases; memcheck on one case;
# 2. its speed where the GEMM forms are store-bound (fam13's TF32 forward: 0.80 ms on wgmma, 0.66 on mma.sync, a
#    quarter of the write floor's pace; the k2 s2 up-convs at 16-64 input channels): gather_rule_sweep.py on the
#    forward shapes in TF32 and bf16, "grouped_tiled" among the variants; then a same-build A/B of
#    TCONV_GROUPED_TILED_AUTO (1: "auto" takes it where C_in x taps <= 32) on fam13.
# If it passes and wins, set kGroupedTiledAutoMaxK from the sweep and make it the default. Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
timeout 170 python3 -m pytest -q -x tests/test_conv_transpose_gpu.py -k "grouped_tiled" 2>&1 | tail -4 \
  | tee "$LOG/pytest_grouped_tiled.log"
timeout 60 compute-sanitizer --tool memcheck --print-limit 5 python3 -m pytest -q -x tests/test_conv_transpose_gpu.py \
  -k "test_grouped_tiled_meets_the_contract and fam13_like and tf32 and contiguous" 2>&1 | tail -4 \
  | tee "$LOG/memcheck_grouped_tiled.log"
echo "== sweep at $(( $(date +%s) - start )) s"
(cd scripts && timeout 100 python3 gather_rule_sweep.py --precision tf32 bf16 --runs 20 --only fam13_k3s5d2_c32 \
   2d_k2s2_c16 2d_k2s2_c32 2d_k2s2_c64 3d_k2s2_c32 3d_k2s2_c64 2d_k4s2_c32 fam12_k3s2d2_c32 \
   --json "$LOG/gather_rules.json" 2>&1 | grep -v Warn) | tee "$LOG/gather_rules.log"
echo "== A/B at $(( $(date +%s) - start )) s"
OUT="$LOG" SWITCH=TCONV_GROUPED_TILED_AUTO VALUES="1 0" ROUNDS=2 PRECISIONS="tf32 bf16" timeout 90 \
  bash scripts/device_switch_ab.sh fam13_convt2d_k3_s5_p1_d2_64x128 2>&1 | grep -v Warn | tee "$LOG/timing_tiled.log"
device_finish
