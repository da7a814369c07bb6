#!/usr/bin/env bash
# Session 96, run 511 (one H200, warm after run 510): prepared in session 95 as next-session-second-run.sh.
# Committed before the call; TCONV_COMMIT=<sha> passed on the command line.
# Verified bf16 channels-last rows at the defaults (the TMA grad_weight's waves, the window grad_weight up to 128
# output channels and its split form at n64): fam06 and L2-61 (run 508 under the switch: 0.980 / 2.790 and 0.814 /
# 2.544 ms), fam05, fam01, fam03 (their grad_weight passes -0.34, -0.36, -0.15 ms in run 509). Session 92's rows
# (d28c057, fwd / fwd+bwd ms, x eager): fam05 0.680 / 2.137 (1.01x f+b), fam01 1.268 / 4.124 (0.94x / 0.97x), fam03
# 1.020 / 2.757 (2.41x f+b). Predicted f+b if the pass's gain reaches the wall (grad_weight runs beside grad_input on
# the side stream, so less may): fam05 ~1.8, fam01 ~3.8 (~1.05x eager), fam03 ~2.6.
source scripts/device_prelude.sh
bench_budget 570 bf16 channels_last fam06_convt2d_k3x5_128x256 l2_61_convt3d_relu_groupnorm \
  fam05_convt2d_k3x7_512x512 fam01_convt2d_k3_1024x1024 fam03_convt3d_k3_64x64x64
device_finish
