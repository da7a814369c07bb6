#!/usr/bin/env bash
# Run 132 (session 19): Nsight Compute on the strip grad_weight kernel (cp.async raw ring, run 131's build) on
# HiFi-GAN: memory workload (DRAM bytes, L2 hit rate), tensor-pipe activity, shared-memory conflicts, stalls.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > $OUT/build.log 2>&1 || { tail -40 $OUT/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
M="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
M="$M,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum"
M="$M,lts__t_sector_hit_rate.pct,lts__t_bytes.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
M="$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
M="$M,sm__cycles_elapsed.avg,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"
timeout 300 ncu --clock-control none -k "regex:strip_grad_weight" --launch-skip 0 --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats \
  --metrics "$M" python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --runs 1 --warmup 1 \
  > $OUT/ncu_gw.txt 2>&1
grep -E "Duration|Throughput|Hit Rate|hmma|dram__|lts__|l1tex__|sm__cycles|inst_executed|Grid Size|Shared Memory Config|Dynamic Shared" $OUT/ncu_gw.txt | head -40
grep -E "issue_stalled_.*ratio" $OUT/ncu_gw.txt | awk '{print $NF, $1}' | sort -gr | head -10
echo "done $((SECONDS-t0)) s"
