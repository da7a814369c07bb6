#!/usr/bin/env bash
# Session 96, run 513 (one H200, cold). Committed before the call; TCONV_COMMIT=<sha> passed on the command line.
# Run 512: the tall tile (256 positions, -25 % of the L2-to-shared bytes a FLOP) left fam06's forward GEMM level
# (0.950 -> 0.949 ms), so the L2 traffic does not bound it. Nsight Compute on that kernel, 128-position tile and tall
# tile (bf16 channels-last, the first forward launch of quick_timing's warm-up), to find what does: the tensor pipe's
# active cycles, shared memory's wavefronts and bank conflicts (the wgmmas read A and B from shared memory while TMA
# writes the next stages), the warps' stalls; then the SM and memory throughput breakdowns of the tall tile.
# --clock-control none: ncu would otherwise lock the clocks to base, and we never change them.
source scripts/device_prelude.sh
SECTIONS="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables"
SECTIONS="$SECTIONS --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats"
METRICS="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
METRICS="$METRICS,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"
METRICS="$METRICS,lts__t_bytes.sum.per_second,smsp__cycles_active.avg,sm__cycles_elapsed.avg.per_second"
profile() {  # name, switch value, extra ncu arguments...
  local name="$1" value="$2"; shift 2
  TCONV_TMA_GATHER_TALL="$value" timeout 150 ncu --clock-control none -k "regex:gather_tma16_persistent" \
    --launch-skip 0 --launch-count 1 "$@" python3 scripts/quick_timing.py fam06_convt2d_k3x5_128x256 \
    --precision bf16 --layout channels_last --runs 1 --warmup 1 > "$LOG/ncu_$name.txt" 2>&1
  echo "=== $name: $(grep -c . "$LOG/ncu_$name.txt") lines"
  grep -E "Duration|Memory Throughput|Compute \(SM\) Throughput|L2 Cache Throughput|Shared|Bank|hmma|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Executed Ipc|SM Frequency|Mem Pipes|lts__t_bytes" \
    "$LOG/ncu_$name.txt" | head -30
  grep -E "issue_stalled_.*ratio" "$LOG/ncu_$name.txt" | awk '{print $NF, $1}' | sort -gr | head -6
}
left 300 && profile fam06_128 0 $SECTIONS --metrics "$METRICS"
left 420 && profile fam06_tall 1 $SECTIONS --metrics "$METRICS"
left 500 && profile fam06_tall_breakdown 1 --section SpeedOfLight \
  --metrics "breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed,breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"
left 540 && grep -E "%|pct" "$LOG/ncu_fam06_tall_breakdown.txt" | sort -k3 -gr | head -24
device_finish
