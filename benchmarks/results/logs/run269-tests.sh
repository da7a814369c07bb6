#!/usr/bin/env bash
# Run 269's preamble on GPU 0 (scripts/device_queue.sh, built already): 5c4ef0b/acb3c2c's grouped rule and its tests,
# the lines tests with 8 warps per block, memcheck/racecheck of the lines kernel, the whole GPU directory, then the
# warps/rows A/B of session39-next_run.sh. Logs go to $WORK (packed by the queue script).
export OMP_NUM_THREADS=16
t0=$SECONDS
timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "grouped_mma_lines or auto_picks_grouped" > $WORK/pytest_rule.log 2>&1
echo "rule and lines tests rc $? ($((SECONDS-t0)) s)"; tail -1 $WORK/pytest_rule.log; grep -E "^FAILED|^ERROR" $WORK/pytest_rule.log | head
TCONV_GROUPED_MMA_LINES_WARPS=8 timeout 60 python3 -m pytest -q -rfE -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py -k "grouped_mma_lines" > $WORK/pytest_warps8.log 2>&1
echo "lines tests with 8 warps rc $? ($((SECONDS-t0)) s)"; tail -1 $WORK/pytest_warps8.log
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --kernel-name kns=grouped_mma_lines python3 \
    benchmarks/results/logs/run264-lines_sanitize.py > $WORK/sanitize_$tool.log 2>&1
  echo "$tool rc $? ($((SECONDS-t0)) s)"; tail -2 $WORK/sanitize_$tool.log
done
timeout 280 python3 -m pytest -q -rfE -p no:cacheprovider tests > $WORK/pytest.log 2>&1
echo "GPU tests rc $? ($((SECONDS-t0)) s)"; tail -1 $WORK/pytest.log; grep -E "^FAILED|^ERROR" $WORK/pytest.log | head -20
(cd scripts
 for cfg in "4 8" "8 8" "8 16"; do
   set -- $cfg
   TCONV_GROUPED_MMA_LINES_WARPS=$1 TCONV_GROUPED_MMA_LINES_ROWS=$2 timeout 100 python3 quick_timing.py \
     l1_73_convt3d_strided_padded_grouped l1_72_convt3d_asym_kernel_strided_padded_grouped \
     fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 --precision tf32 bf16 fp32 --algorithm auto --runs 10 --warmup 2 \
     --json $WORK/ab_warps$1_rows$2.json 2>&1 | sed "s/^/WARPS=$1 ROWS=$2 /"
 done) > $WORK/ab.log 2>&1
grep fwd $WORK/ab.log | sed 's/ \+/ /g' | cut -c1-150
echo "preamble done $((SECONDS-t0)) s"
