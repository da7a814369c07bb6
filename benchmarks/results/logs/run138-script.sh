#!/usr/bin/env bash
# Run 138 (session 20): A/B of the forward strip kernel on HiFi-GAN. A = 3c0a0b3's (TCONV_AB_OLD=1): the prologue
# stores each stage right after loading it (4 serialized load latencies a block, with 32 K stages a block), and
# rows of 4 channels x 2 row rounds (32 scalar loads a stage, half predicated off for 1 extra row). B = the working
# tree: the prologue loads stage st + 1 before storing st; x by (quad, row) groups, 5 a thread (20 loads a stage).
# Prediction: B 3-8 % faster (fill ~2-4 us of a 44 us block). Then ncu (with SASS source counters) on B.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > $OUT/build.log 2>&1 || { tail -40 $OUT/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip" > $OUT/pytest.log 2>&1; tail -12 $OUT/pytest.log | grep -E "passed|failed|Error" | tail -4
for v in B A B A; do
  if [ $v = A ]; then export TCONV_AB_OLD=1; else unset TCONV_AB_OLD; fi
  echo "== $v"; python3 scripts/kernel_breakdown.py real_hifigan_up --precision tf32 --iters 5 2>&1 | grep -E "strip_forward|ms of kernels"
done 2>&1 | tee $OUT/ab.txt
unset TCONV_AB_OLD
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -2 $OUT/racecheck.log
M="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
M="$M,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum"
M="$M,lts__t_sector_hit_rate.pct,lts__t_bytes.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
M="$M,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__cycles_elapsed.avg,smsp__inst_executed.sum"
timeout 240 ncu --clock-control none -k "regex:strip_forward_kernel" --launch-skip 0 --launch-count 1 \
  --section SpeedOfLight --section WarpStateStats --section SourceCounters --metrics "$M" -o $OUT/fwd \
  python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --runs 1 --warmup 1 > $OUT/ncu_run.txt 2>&1
ncu --import $OUT/fwd.ncu-rep --print-summary none > $OUT/ncu_fwd.txt 2>&1
grep -E "Duration|Throughput|hmma|dram__|lts__|l1tex__|sm__cycles|inst_executed" $OUT/ncu_fwd.txt | head -20
grep -E "issue_stalled_.*ratio" $OUT/ncu_fwd.txt | awk '{print $NF, $1}' | sort -gr | head -8
timeout 60 ncu --import $OUT/fwd.ncu-rep --page source --csv --print-source sass > $OUT/ncu_fwd_sass.csv 2>&1; wc -l $OUT/ncu_fwd_sass.csv
echo "done $((SECONDS-t0)) s"
