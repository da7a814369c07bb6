#!/usr/bin/env bash
# Session 61, run 378 (one H200). The shallow-K rule as runs 376-377 bound it (igemm_config.h kGatherMmaSyncMaxK = 64:
# TF32 forwards with a GEMM K of at most 64 whose columns the wgmma tile does not divide take the mma.sync gather):
# its kernel-choice test and the TF32 grid, fold and random-sweep tests under "auto" and "igemm"; the sweep again with
# the rule on ("auto" should match the faster of "igemm_mma" and run 377's "igemm" everywhere); a same-build A/B of
# TCONV_GATHER_MMA_SYNC_MAX_K (0 = off) on fam13; fam13's verified bench rows (TF32, bf16). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
timeout 170 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "shallow_tf32 or (test_grid and tf32 and not grouped) or (test_random_sweep and (auto or igemm-) and not grouped) \
   or fold_any_stride" 2>&1 | tail -4 | tee "$LOG/pytest_shallow.log"
echo "== sweep at $(( $(date +%s) - start )) s"
(cd scripts && timeout 80 python3 gather_rule_sweep.py --precision tf32 --runs 15 \
   --only fam13_k3s5d2_c32 fam13_k3s5d2_c32_co32 fam13_k3s5d2_c32_co128 fam13_k3s5d2_c16 fam13_k3s5d2_c64 \
   2d_k2s2_c32 2d_k2s2_c32_co128 2d_k2s2_c32_co256 1d_k4s4_c32 1d_k3s3_c32 3d_k2s2_c32 3d_k2s2_c32_co64 \
   3d_k2s2_c16_co128 2d_k2s2_c64 --json "$LOG/gather_rules.json" 2>&1 | grep -v Warn) | tee "$LOG/gather_rules.log"
echo "== A/B at $(( $(date +%s) - start )) s"
OUT="$LOG" SWITCH=TCONV_GATHER_MMA_SYNC_MAX_K VALUES="64 0" ROUNDS=2 PRECISIONS="tf32" timeout 60 \
  bash scripts/device_switch_ab.sh fam13_convt2d_k3_s5_p1_d2_64x128 2>&1 | grep -v Warn | tee "$LOG/timing_shallow.log"
echo "== bench at $(( $(date +%s) - start )) s"
for precision in tf32 bf16; do
  timeout 60 python3 -m tconv bench fam13_convt2d_k3_s5_p1_d2_64x128 --precision $precision --no-compile --runs 20 \
    --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee "$LOG/bench_$precision.log" | grep -v "^chart\|^results"
done
rm -f "$OUT"/*.png
device_finish
