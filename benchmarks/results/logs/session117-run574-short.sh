#!/usr/bin/env bash
# Session 117's short call (its device time mostly spent on failed starts; under 300 s left): after the build, the
# channels-last rows grad_weight (TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST) timed 1 against 0 on real_unet3d_up (run 572:
# fwd+bwd 1.316 ms, grad_weight 0.786 of it; predicted ~0.85), then its test while time is left.
source scripts/device_prelude.sh
end=${END_S:-240}
switch=TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST
for value in 1 0; do
  left $(( end - 30 )) && LAYOUT=channels_last quick_time "rows_cl_$value" real_unet3d_up tf32 auto $switch=$value \
    | tee -a "$LOG/quick.log"
done
left $(( end - 40 )) && gpu_tests $(( end - 10 - $(date +%s) + start )) rows_cl \
  tests/test_grad_weight_rows_channels_last_gpu.py rows_channels_last
device_finish
