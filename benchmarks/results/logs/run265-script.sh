#!/usr/bin/env bash
# Run 265: why the lines form of the grouped tensor-core forward (dbdce44) runs L1-73 at 1.41 ms instead of the
# ~0.4 ms its instruction count predicts: Nsight Compute sections and the SASS source page of the lines kernel
# (L1-73 TF32, L1-72 bf16), and the sections of the FFMA grouped forward on L1-73 beside it.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
MAX_JOBS=16 python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
SECTIONS="--section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats --section LaunchStats --section InstructionStats"
METRICS="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum"
prof() {  # name, stem, precision, algorithm, kernel regex
  timeout 150 ncu --clock-control none -k "regex:$5" --launch-skip 0 --launch-count 1 $SECTIONS --metrics "$METRICS" \
    python3 scripts/quick_timing.py "$2" --precision "$3" --algorithm "$4" --runs 1 --warmup 1 > "$OUT/ncu_$1.txt" 2>&1
  echo "=== $1 rc $? ($((SECONDS-t0)) s)"
  grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Compute \(SM\) Throughput|L2 Cache Throughput|DRAM Throughput|Warp Cycles Per Issued|Issue Slots Busy|No Eligible|hmma_cycles|bank_conflicts|wavefronts_mem_shared|dram__bytes|inst_executed.sum|Dynamic Shared|Grid Size|stalled_.*ratio +[0-9]*\.[0-9]*[1-9]" \
    "$OUT/ncu_$1.txt" | grep -vE "ratio +0\.0[0-9]$" | head -60
}
prof l1_73_lines_tf32 l1_73_convt3d_strided_padded_grouped tf32 grouped_mma grouped_mma_lines
prof l1_72_lines_bf16 l1_72_convt3d_asym_kernel_strided_padded_grouped bf16 grouped_mma grouped_mma_lines
prof l1_73_ffma_tf32 l1_73_convt3d_strided_padded_grouped tf32 grouped grouped_forward
timeout 150 ncu --clock-control none -k "regex:grouped_mma_lines" --launch-skip 0 --launch-count 1 \
  --section SourceCounters --section WarpStateStats --section InstructionStats --import-source no \
  --page source --print-source sass --csv \
  python3 scripts/quick_timing.py l1_73_convt3d_strided_padded_grouped --precision tf32 --algorithm grouped_mma \
  --runs 1 --warmup 1 > $OUT/src_l1_73_lines_tf32.csv 2> $OUT/src_l1_73_lines_tf32.err
echo "source page rc $? ($((SECONDS-t0)) s)"; gzip -f $OUT/src_l1_73_lines_tf32.csv
python3 scripts/ncu_source_summary.py $OUT/src_l1_73_lines_tf32.csv.gz --top 30 2>&1 | head -70
echo "done $((SECONDS-t0)) s"
