#!/usr/bin/env bash
# Session 101, run 539 (one H200, cold, on the last ~290 s of the session's device time); run with
# TCONV_COMMIT=<full sha of the commit it runs at, typed out>.
# Source counters of L2-61's TF32 forward conv on the warp-specialized wide-rows kernel (run 538: 886.75 us, tensor
# pipe 65.8 %, long scoreboard 47.5 % of warp cycles): whether the MMA warpgroups wait on full[] (the producer too
# slow) or on their own wgmma waits and the per-block fill and store.
source scripts/device_prelude.sh
ncu_source_kernel 225 l2_61_tf32_specialized l2_61_convt3d_relu_groupnorm tf32 contiguous strip_unit_stride_forward
device_finish
