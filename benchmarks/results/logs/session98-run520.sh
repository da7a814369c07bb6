#!/usr/bin/env bash
# Session 98, run 520 (prepared in session 97): the session's first GPU call, one H200, cold. Run as
# TCONV_COMMIT=<sha> bash benchmarks/results/logs/session98-run520.sh.
# 1. The dense grouped grad_input (TCONV_GROUPED_DENSE_GRAD_INPUT=1, development, default 0; tconv/_grouped_dense.py),
#    written after session 97's device time ran out: its switch test (contract bf16 under 1, no grouped kernel in
#    grad_input under 1, one under 0), then the per-pass probe with each pass's kernels named (bf16 channels-last), then
#    quick timings of L1-73, L1-72, fam09 under 0 / 1. Predicted (run 517's per-pass ms): L1-73 f+b 4.18 -> ~3.66,
#    L1-72 1.08 -> ~0.98, fam09 1.84 -> ~2.8 (the rule needs more than three shapes; the kernel names say why).
# 2. ncu of fam06's ping-pong forward (bf16 channels-last, --clock-control none): L2 throughput and the tensor pipe,
#    to test session 97's reading that ~10 TB/s of L2-to-shared bytes now bound it (run 513: 8.3 TB/s at 71 %); and
#    fam06 under "igemm_tma_window" (the 128-column window: one A box per (kh, chunk) for the 5 W taps, ~174 KB of L2
#    bytes per 128 positions against the per-tap boxes' 480; non-persistent; run 469: 2.220 ms against the per-tap
#    boxes' then 1.720), as a current data point for the next form (notes/perf.md "Session 97").
source scripts/device_prelude.sh
left 200 && gpu_tests 120 dense_grad_input tests/test_conv_transpose_gpu.py "grouped_dense_grad_input_switch"
left 300 && timeout 60 python3 scripts/grouped_dense_probe.py --layout channels_last --kernels \
  --json "$LOG/dense_cl.json" 2>&1 | grep -v Warn | cut -c1-400 | tee "$LOG/dense_probe.log"
for stem in l1_73_convt3d_strided_padded_grouped l1_72_convt3d_asym_kernel_strided_padded_grouped \
    fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256; do
  for v in 0 1; do
    left 420 && LAYOUT=channels_last quick_time dense_$v $stem bf16 auto TCONV_GROUPED_DENSE_GRAD_INPUT=$v
  done
done | tee "$LOG/dense_quick.log"
left 470 && LAYOUT=channels_last quick_time window fam06_convt2d_k3x5_128x256 bf16 igemm_tma_window | tee "$LOG/window.log"
METRICS="sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum.per_second"
METRICS="$METRICS,lts__t_sectors_srcunit_tex.sum,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum"
left 520 && timeout 75 ncu --clock-control none -k "regex:gather_tma16_persistent_ping_pong" --launch-skip 0 \
  --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --metrics "$METRICS" \
  python3 scripts/quick_timing.py fam06_convt2d_k3x5_128x256 --precision bf16 --layout channels_last --runs 1 \
  --warmup 1 > "$LOG/ncu_fam06_ping_pong.txt" 2>&1
grep -E "Duration|L2 Cache Throughput|Memory Throughput|hmma|lts__t_bytes|SM Frequency" "$LOG/ncu_fam06_ping_pong.txt" \
  | head -12
device_finish
