#!/usr/bin/env bash
# Session 111's third call (run 556), on run 555's warm H100 (its build cached); TCONV_COMMIT=<full sha>, END_S.
# Run 555 (H100, 39dca74): the ring won on fam01 too (TF32 grad_weight 4.167 -> 3.354 ms; fam11 and L1-71 take the
# narrow kernel, untouched); store statistics lost in bf16 (conv kernel 0.539 -> 0.662 ms against the 0.084 ms pass),
# so the rule's fp32-only default stands; its store-statistics tests did not run (the build took 238 s).
# 1. The store-statistics tests, with the rule's new case (a bf16 block keeps the statistics pass). Predicted: pass.
# 2. Verified TF32 bench rows with the new defaults: L2-61 (predicted fwd ~1.24 ms, fwd+bwd ~4.21), fam01 (fwd+bwd
#    -0.8 ms), fam05 (-0.3 ms), fam06 (-0.15 ms).
# 3. The rest of the TF32 shifted-x tests while time remains.
source scripts/device_prelude.sh
end=${END_S:-520}
gpu_tests 60 store_stats tests/test_fused_gpu.py "conv_store"
bench_budget $(( end - 60 )) tf32 contiguous l2_61_convt3d_relu_groupnorm fam01_convt2d_k3_1024x1024 \
  fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256
left $(( end - 20 )) && gpu_tests $(( end - 5 - ($(date +%s) - start) )) shifted_x_tf32 tests/test_conv_transpose_gpu.py \
  "shifted_x and not (bf16 or fp16 or fp32 or ring or where_planned)"
device_finish
