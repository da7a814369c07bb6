#!/usr/bin/env bash
# Session 89, run 481 (one H200, warm after run 480). Run 480's persistent test failed in its script again (braces in
# an f-string); fixed. L1-71's fwd+bwd read 1.043 ms under the persistent tile (0.862-0.926 before): time it on / off.
source scripts/device_prelude.sh
left 200 && gpu_tests 200 persistent tests/test_gather_tma_gpu.py "window_persistent_switch"
for persistent in 0 1; do
  left 380 && LAYOUT=channels_last quick_time "persistent$persistent" l1_71_convt2d_asym_input_square_kernel bf16 auto \
    TCONV_TMA_WINDOW_PERSISTENT=$persistent | tee -a "$LOG/timing.log"
done
device_finish
