#!/usr/bin/env bash
# Session 61, run 377 (one H200).
# 1. The shallow-K rule (igemm_config.h kGatherMmaSyncMaxK = 32: TF32 forwards whose whole GEMM K, input channels x
#    the phase's taps after the fold, is at most 32 take the mma.sync gather): its kernel-choice test and the
#    grouped_tiled tests (grouped_tiled now forced only: run 376 had it 1.4-4x slower everywhere); a same-build A/B of
#    TCONV_GATHER_MMA_SYNC_MAX_K (0 = the rule off) on fam13 in TF32; gather_rule_sweep.py with the rule off, TF32,
#    over K 16-64 and 64-640 columns ("igemm" = wgmma there, "igemm_mma" = mma.sync), to bound it; fam13's bench row.
# 2. HiFi-GAN's TF32 strip grad_weight: ncu's L2 sectors by source and operation (run 375: ~18.6 GB, 69 % L2).
# 3. L1-68's TF32 fwd+bwd against its passes' sum: bench's loop with host ms (bench_host_trace.py) and the
#    profiler's kernel census of a fwd+bwd (kernel_breakdown.py). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
timeout 100 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "shallow_tf32 or grouped_tiled_is_what_runs or window_span2 or (grouped_tiled_meets and fam13)" 2>&1 | tail -4 \
  | tee "$LOG/pytest_shallow.log"
echo "== A/B at $(( $(date +%s) - start )) s"
OUT="$LOG" SWITCH=TCONV_GATHER_MMA_SYNC_MAX_K VALUES="32 0" ROUNDS=2 PRECISIONS="tf32" timeout 60 \
  bash scripts/device_switch_ab.sh fam13_convt2d_k3_s5_p1_d2_64x128 2>&1 | grep -v Warn | tee "$LOG/timing_shallow.log"
echo "== sweep at $(( $(date +%s) - start )) s"
(cd scripts && TCONV_GATHER_MMA_SYNC_MAX_K=0 timeout 80 python3 gather_rule_sweep.py --precision tf32 --runs 15 \
   --only fam13_k3s5d2_c32 fam13_k3s5d2_c32_co32 fam13_k3s5d2_c32_co128 fam13_k3s5d2_c16 fam13_k3s5d2_c64 \
   2d_k2s2_c32 2d_k2s2_c32_co128 2d_k2s2_c32_co256 1d_k4s4_c32 1d_k3s3_c32 3d_k2s2_c32 3d_k2s2_c32_co64 \
   3d_k2s2_c16_co128 --json "$LOG/gather_rules.json" 2>&1 | grep -v Warn) | tee "$LOG/gather_rules.log"
echo "== bench at $(( $(date +%s) - start )) s"
timeout 60 python3 -m tconv bench fam13_convt2d_k3_s5_p1_d2_64x128 --precision tf32 --no-compile --runs 20 \
  --warmup 3 --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee "$LOG/bench_tf32.log" | grep -v "^chart\|^results"
rm -f "$OUT"/*.png
echo "== ncu at $(( $(date +%s) - start )) s"
timeout 90 ncu --clock-control none -k "regex:strip_grad_weight" --launch-skip 0 --launch-count 1 \
  --section MemoryWorkloadAnalysis_Tables --metrics \
lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_op_read.sum,\
lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,dram__bytes_read.sum,dram__bytes_write.sum,\
lts__t_bytes.sum \
  python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --runs 1 --warmup 1 > "$LOG/ncu_hifigan_l2.txt" 2>&1
grep -E "lts__|dram__" "$LOG/ncu_hifigan_l2.txt" | head -12
echo "== L1-68 at $(( $(date +%s) - start )) s"
left=$(( 585 - ($(date +%s) - start) ))
(cd scripts
 timeout $(( left / 2 )) python3 bench_host_trace.py l1_68_convt3d_square_input_asym_kernel --precision tf32 --runs 10 \
   2>&1 | grep -v Warn | tail -40
 timeout $(( left / 2 - 5 )) python3 kernel_breakdown.py l1_68_convt3d_square_input_asym_kernel --precision tf32 \
   --iters 2 --json "$LOG/kernels_l1_68_tf32.json" 2>&1 | grep -v Warn | tail -30) 2>&1 | tee "$LOG/l1_68.log"
device_finish
