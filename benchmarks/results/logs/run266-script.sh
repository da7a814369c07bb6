#!/usr/bin/env bash
# Run 266: the lines form after run 265's profile (staging rows without divisions, C fragments stored straight to
# global memory instead of through a shared-memory tile, the forward's fragment rows at immediate offsets):
# its tests, memcheck/racecheck, an A/B against the FFMA grouped forward on L1-73, L1-72 and fam09 (and 4 against 8
# dst rows per tile), then the L1-73 TF32 source page again.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
MAX_JOBS=16 python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider --maxfail=10 tests/test_conv_transpose_gpu.py -k "grouped_mma_lines" \
  > $OUT/pytest_lines.log 2>&1
echo "lines tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_lines.log; grep -E "^FAILED|^ERROR" $OUT/pytest_lines.log | head
cp benchmarks/results/logs/run264-lines_sanitize.py /tmp/lines_sanitize.py
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --kernel-name kns=grouped_mma_lines python3 /tmp/lines_sanitize.py \
    > $OUT/sanitize_$tool.log 2>&1; echo "$tool rc $? ($((SECONDS-t0)) s)"; tail -2 $OUT/sanitize_$tool.log
done
(cd scripts
 timeout 150 python3 quick_timing.py l1_73_convt3d_strided_padded_grouped l1_72_convt3d_asym_kernel_strided_padded_grouped \
   fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 --precision tf32 bf16 fp32 --algorithm grouped grouped_mma \
   --runs 10 --warmup 2 --json $OUT/ab_rows8.json 2>&1 | sed "s/^/ROWS=8 /"
 TCONV_GROUPED_MMA_LINES_ROWS=4 timeout 60 python3 quick_timing.py l1_73_convt3d_strided_padded_grouped \
   l1_72_convt3d_asym_kernel_strided_padded_grouped --precision tf32 bf16 --algorithm grouped_mma \
   --runs 10 --warmup 2 --json $OUT/ab_rows4.json 2>&1 | sed "s/^/ROWS=4 /") > $OUT/ab.log 2>&1
echo "A/B ($((SECONDS-t0)) s)"; cut -c1-160 $OUT/ab.log
timeout 120 ncu --clock-control none -k "regex:grouped_mma_lines" --launch-skip 0 --launch-count 1 \
  --section SpeedOfLight --section Occupancy --section WarpStateStats --section SourceCounters --section InstructionStats \
  --import-source no --page source --print-source sass --csv \
  python3 scripts/quick_timing.py l1_73_convt3d_strided_padded_grouped --precision tf32 --algorithm grouped_mma \
  --runs 1 --warmup 1 > $OUT/src_l1_73_lines_tf32.csv 2> $OUT/src_l1_73_lines_tf32.err
echo "source page rc $? ($((SECONDS-t0)) s)"; gzip -f $OUT/src_l1_73_lines_tf32.csv
python3 scripts/ncu_source_summary.py $OUT/src_l1_73_lines_tf32.csv.gz --top 12 2>&1 | head -30
left=$(( 560 - (SECONDS - t0) ))
[ $left -gt 40 ] && timeout $left python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "grouped" > $OUT/pytest_grouped.log 2>&1
echo "grouped tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_grouped.log; grep -E "^FAILED|^ERROR" $OUT/pytest_grouped.log | head -20
echo "done $((SECONDS-t0)) s"
