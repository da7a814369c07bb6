#!/usr/bin/env bash
# Session 91, run 491 (one H200, cold call). Run 489: the split build (102 s), 732 grid + 270 grouped tests passed, and
# serial grad_input beside the persistent kernels: VAE fwd+bwd 1.000 -> 0.654 ms, DCGAN 0.620 -> 0.460 (quick_timing).
# Run 490's verified rows timed more: VAE 0.897 (p20-p80 0.78-1.01), DCGAN 0.642 (0.48-0.83), U-Net 3D 0.803: the
# spread of a host-bound loop. Here:
# 1. where the host time goes per channels-last bf16 fwd+bwd (host_overhead.py: host against GPU ms, cProfile, each
#    entry point's host time), and bench's own loop per run (bench_host_trace.py: host / GPU ms a run);
# 2. ncu of fam06's persistent per-tap forward (0.96 ms, 0.76x eager; cuDNN ~0.73).
source scripts/device_prelude.sh
for problem in real_dcgan_up real_vae_up real_unet3d_up; do
  left 400 && (cd scripts && timeout 60 python3 host_overhead.py $problem --precision bf16 --layout channels_last \
    --iters 20 --cprofile 40 --entry-points > "$LOG/host_$problem.log" 2>&1)
  grep -E "host .* per fwd\+bwd" "$LOG/host_$problem.log"
  left 450 && (cd scripts && timeout 60 python3 bench_host_trace.py $problem --precision bf16 --layout channels_last \
    > "$LOG/trace_$problem.log" 2>&1)
  grep -E "fwdbwd" "$LOG/trace_$problem.log" | cut -c1-160
done
SECTIONS="--section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis"
SECTIONS+=" --section SchedulerStats --section LaunchStats --section ComputeWorkloadAnalysis"
left 480 && timeout 100 ncu --clock-control none -k "regex:gather_tma16_persistent" --launch-skip 0 --launch-count 1 \
  $SECTIONS python3 scripts/quick_timing.py fam06_convt2d_k3x5_128x256 --precision bf16 --layout channels_last \
  --runs 1 --warmup 1 > "$LOG/ncu_fam06_persistent.txt" 2>&1
grep -E "Duration|Registers Per|Achieved Occupancy|Memory Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|No Eligible|Issue Slots|Block Limit" \
  "$LOG/ncu_fam06_persistent.txt" | head -20
device_finish
