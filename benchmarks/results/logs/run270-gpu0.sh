#!/usr/bin/env bash
# Run 270: the tensor-core grouped grad_weight (tconv_grouped_mma_grad_weight_kernel), first GPU run: its tests, the
# sanitizers on it, then grad_weight alone against "auto" (the direct kernel) on the three grouped problems, with 8
# warps and 4 rows per tile as variants. Run as scripts/device_queue.sh's PREAMBLE (built already; logs to $WORK),
# bounded by GRID_S seconds for the grouped_mma grid and sweeps at the end.
set -uo pipefail
OUT=$WORK
t0=$SECONDS
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 -m pytest -q -rfE --maxfail=6 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "grouped_mma_grad_weight or grouped_grad_weight_batch_zero or grouped_mma_lines or auto_picks_grouped" > $OUT/pytest_gw.log 2>&1
echo "grad_weight tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_gw.log; grep -E "^FAILED|^ERROR|Error|assert" $OUT/pytest_gw.log | head -12
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --kernel-name kns=grouped_mma_grad_weight python3 \
    benchmarks/results/logs/run270-grad_weight_sanitize.py > $OUT/sanitize_$tool.log 2>&1
  echo "$tool rc $? ($((SECONDS-t0)) s)"; tail -2 $OUT/sanitize_$tool.log
done
(cd scripts
 P="l1_73_convt3d_strided_padded_grouped l1_72_convt3d_asym_kernel_strided_padded_grouped fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256"
 timeout 120 python3 grad_weight_timing.py $P --precision tf32 bf16 fp32 --algorithm auto grouped_mma --runs 10 --json $OUT/gw_ab.json
 for cfg in "8 8" "4 4" "8 4"; do set -- $cfg
   TCONV_GROUPED_MMA_GRAD_WEIGHT_WARPS=$1 TCONV_GROUPED_MMA_GRAD_WEIGHT_ROWS=$2 timeout 60 python3 grad_weight_timing.py $P \
     --precision tf32 bf16 --algorithm grouped_mma --runs 10 | sed "s/^/WARPS=$1 ROWS=$2 /"
 done) > $OUT/gw_ab.log 2>&1
cat $OUT/gw_ab.log | cut -c1-160
timeout ${GRID_S:-150} python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "grid_grouped and grouped_mma or random_sweep_grouped and grouped_mma or random_sweep and grouped_mma" > $OUT/pytest_grid.log 2>&1
echo "grouped_mma grid/sweeps rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_grid.log; grep -E "^FAILED|^ERROR" $OUT/pytest_grid.log | head -12
echo "done $((SECONDS-t0)) s"
