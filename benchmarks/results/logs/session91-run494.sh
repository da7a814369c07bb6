#!/usr/bin/env bash
# Session 91, run 494 (one H200, cold call, the session's last ~340 s of device time). Runs 492-493: the native
# backward passed its test (11 with the concurrency tests) and bench's two-trial verify on ten rows; tconv's host per
# fwd+bwd is now on par with torch's own. Here, the GPU tests that run one signature's backward again and again (so
# its later backwards take the native call): the fused block's tests, optimize()'s, the ordered grad_weight's
# determinism, CUDA graph capture and replay (the native call under capture: passes one after the other), the
# current-stream test, the module test, opcheck, and the grad_bias / grouped determinism tests.
source scripts/device_prelude.sh
left 140 && gpu_tests 60 fused tests/test_fused_gpu.py "not nothing"
left 170 && gpu_tests 30 optimize tests/test_optimize_gpu.py "not nothing"
left 200 && gpu_tests 40 repeated tests/test_conv_transpose_gpu.py \
  "cuda_graph_capture or current_stream_is_used or module_on_gpu or opcheck_cuda or grad_bias_deterministic or grouped_grad_weight_deterministic or grouped_mma_grad_weight_deterministic or native_backward"
left 215 && gpu_tests 25 ordered tests/test_grad_weight_ordered_gpu.py "deterministic"
device_finish
