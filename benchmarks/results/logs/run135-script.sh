#!/usr/bin/env bash
# Run 135 (session 19): the landed strip grad_weight kernel (256 x 128 tiles) under Nsight Compute on HiFi-GAN
# (L2 bytes and throughput, tensor-pipe activity, instructions, stalls), then the grid/random/HiFi-GAN/CUDA-graph
# GPU tests on the same build.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > $OUT/build.log 2>&1 || { tail -40 $OUT/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
M="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
M="$M,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum"
M="$M,lts__t_sector_hit_rate.pct,lts__t_bytes.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
M="$M,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__cycles_elapsed.avg,smsp__inst_executed.sum"
timeout 200 ncu --clock-control none -k "regex:strip_grad_weight" --launch-skip 0 --launch-count 1 \
  --section SpeedOfLight --section WarpStateStats --metrics "$M" \
  python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --runs 1 --warmup 1 > $OUT/ncu_gw.txt 2>&1
grep -E "Duration|Throughput|hmma|dram__|lts__|l1tex__|sm__cycles|inst_executed" $OUT/ncu_gw.txt | head -20
grep -E "issue_stalled_.*ratio" $OUT/ncu_gw.txt | awk '{print $NF, $1}' | sort -gr | head -8
echo "ncu $((SECONDS-t0)) s"
timeout $((560-SECONDS)) python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip or grid or random or hifigan or graph" > $OUT/pytest_more.log 2>&1; tail -4 $OUT/pytest_more.log
echo "done $((SECONDS-t0)) s"
