#!/usr/bin/env bash
# Session 101, run 536 (one H200, cold), prepared in session 100; run with TCONV_COMMIT=<full sha of the commit that
# adds this file, typed out>.
# The one-tap forward's runs form (TCONV_ONE_TAP_RUNS=1, development, default 0; written after session 100's device
# time, compiled, never run): contiguous (W-innermost) outputs assembled per channel in shared memory ([channel][run
# position], 64 16-bit or 32 fp32 channels a pass) and stored with lanes along the line, bias and taps in one loop.
# Run 535's lines form (taps stored straight from a tile, 32 positions s apart a warp store) lost: bf16 0.723 -> 0.657,
# TF32 0.668 -> 1.186. Predicted here, fam13 contiguous forward: bf16 0.723 -> ~0.22-0.28 ms, TF32 0.668 -> ~0.35-0.42,
# exact fp32 0.72 -> the same as TF32 (the FFMA form is exact).
# The default channels-last path's code moved too (its shared arrays now one buffer the run tile can lie over;
# ptxas: FFMA fp32 KW 3 spills 72 / 236 bytes against 56 / 212): its rows against run 533's (bf16 0.200, TF32 0.335).
# 1. the runs switch test and the channels-last one-tap contract cases; memcheck of the one-tap workload under RUNS=1
#    (its 3D contiguous call takes the form);
# 2. fam13 contiguous forward / fwd+bwd under 0 / 1 in bf16, TF32 and exact fp32 (quick timing, one build);
# 3. fam13 bf16 CL and TF32 CL verified rows (the default path after the change).
source scripts/device_prelude.sh
left 200 && gpu_tests 100 one_tap_runs tests/test_conv_transpose_gpu.py "one_tap_runs"
left 260 && gpu_tests 40 one_tap_cl tests/test_conv_transpose_gpu.py "one_tap_meets and channels_last"
left 300 && TCONV_ONE_TAP_RUNS=1 timeout 100 compute-sanitizer --tool memcheck --kernel-name kns=one_tap_forward \
  python3 scripts/one_tap_sanitize.py > "$LOG/memcheck_runs.log" 2>&1; tail -2 "$LOG/memcheck_runs.log"
stem=fam13_convt2d_k3_s5_p1_d2_64x128
for prec in bf16 tf32 fp32; do
  for v in 0 1; do left 420 && quick_time "runs_$v" $stem $prec auto TCONV_ONE_TAP_RUNS=$v; done
done
bench_budget 480 bf16 channels_last $stem && mv "$LOG/bench_channels_last.log" "$LOG/bench_channels_last_bf16.log"
bench_budget 520 tf32 channels_last $stem
device_finish
