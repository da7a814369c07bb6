#!/usr/bin/env bash
# Prepared in session 60 for the next session (one H200; rename to sessionNN-runMMM.sh when it runs).
# 1. HiFi-GAN's TF32 strip grad_weight (3.85 ms, the weakest TF32 row's largest pass; cuDNN's wgrad 2.51): where its
#    ~18.6 GB of L2 traffic (run 375: 69 % L2 throughput) comes from, by ncu's L2 sector counts per source and
#    operation and the DRAM bytes. The tile's own loads count ~8.7 GB (x re-read by 16 M tiles, the strips by 4 N tiles).
# 2. L1-68's TF32 fwd+bwd (20.85 ms) against the sum of its passes (20.38 in run 373): 0.47 ms that the 4x target
#    (~20.27 ms) needs. bench's own loop with the host and GPU ms per run and the allocator's counters
#    (bench_host_trace.py), then the profiler's kernel census of one fwd+bwd (kernel_breakdown.py): gaps, copies,
#    memsets. Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
timeout 120 ncu --clock-control none -k "regex:strip_grad_weight" --launch-skip 0 --launch-count 1 \
  --section MemoryWorkloadAnalysis_Tables --metrics \
lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_op_read.sum,\
lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,dram__bytes_read.sum,dram__bytes_write.sum,\
lts__t_bytes.sum \
  python3 scripts/quick_timing.py real_hifigan_up --precision tf32 --runs 1 --warmup 1 > "$LOG/ncu_hifigan_l2.txt" 2>&1
grep -E "lts__|dram__" "$LOG/ncu_hifigan_l2.txt" | head -12
echo "== L1-68 at $(( $(date +%s) - start )) s"
(cd scripts
 timeout 150 python3 bench_host_trace.py l1_68_convt3d_square_input_asym_kernel --precision tf32 --runs 10 2>&1 \
   | grep -v Warn | tail -40
 timeout 100 python3 kernel_breakdown.py l1_68_convt3d_square_input_asym_kernel --precision tf32 --iters 2 \
   --json "$LOG/kernels_l1_68_tf32.json" 2>&1 | grep -v Warn | tail -30) 2>&1 | tee "$LOG/l1_68.log"
device_finish
