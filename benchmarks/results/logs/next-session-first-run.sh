#!/usr/bin/env bash
# Prepared in session 60 for the next session's first GPU call (one H200; rename to sessionNN-runMMM.sh when it runs).
# 1. The tiled grouped forward ("grouped_tiled", written without a GPU in session 60: the grouped FFMA kernel with up to
#    32 input channels, output channels in tiles of 16, one launch per tile): its contract tests (5 shapes x 4 modes x
#    3 layouts, poisoned outputs, gradients), the kernel-choice test and the random sweep's grouped_tiled cases; then
#    memcheck on one case.
# 2. Its speed where the GEMM forms are store-bound (fam13's TF32 forward: 0.80 ms on wgmma, 0.66 on mma.sync, a quarter
#    of the write floor's pace): gather_rule_sweep.py (every forward shape, TF32 and bf16, "grouped_tiled" among the
#    variants), and a same-build A/B of TCONV_GROUPED_TILED_AUTO (1: "auto" takes it where K <= 32) on fam13.
#    If it wins, set the rule from the sweep (kGroupedTiledAutoMaxK) and make it the default.
# 3. HiFi-GAN's TF32 strip grad_weight: where its ~18.6 GB of L2 traffic comes from (run 375), by ncu's L2 sector
#    counts per source and operation. Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
timeout 200 python3 -m pytest -q -x tests/test_conv_transpose_gpu.py -k "grouped_tiled" 2>&1 | tail -4 \
  | tee "$LOG/pytest_grouped_tiled.log"
timeout 60 compute-sanitizer --tool memcheck --print-limit 5 python3 -m pytest -q -x tests/test_conv_transpose_gpu.py \
  -k "test_grouped_tiled_meets_the_contract and fam13_like and tf32 and contiguous" 2>&1 | tail -4 \
  | tee "$LOG/memcheck_grouped_tiled.log"
echo "== sweep at $(( $(date +%s) - start )) s"
(cd scripts && timeout 150 python3 gather_rule_sweep.py --precision tf32 bf16 --runs 20 \
   --json "$LOG/gather_rules.json" 2>&1 | grep -v Warn) | tee "$LOG/gather_rules.log"
echo "== A/B at $(( $(date +%s) - start )) s"
OUT="$LOG" SWITCH=TCONV_GROUPED_TILED_AUTO VALUES="1 0" ROUNDS=2 PRECISIONS="tf32 bf16" timeout 100 \
  bash scripts/device_switch_ab.sh fam13_convt2d_k3_s5_p1_d2_64x128 2>&1 | grep -v Warn | tee "$LOG/timing_tiled.log"
echo "== ncu at $(( $(date +%s) - start )) s"
timeout 90 ncu --clock-control none -k "regex:strip_grad_weight" --launch-skip 0 --launch-count 1 \
  --section MemoryWorkloadAnalysis_Tables --metrics \
lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_op_read.sum,\
lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,dram__bytes_read.sum,dram__bytes_write.sum,\
lts__t_bytes.sum \
  python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --runs 1 --warmup 1 > "$LOG/ncu_hifigan_l2.txt" 2>&1
grep -E "lts__|dram__" "$LOG/ncu_hifigan_l2.txt" | head -12
device_finish
