#!/usr/bin/env bash
# Session 76, run 438 (one H200; the session's last ~440 s of device time). Run at the commit that adds this name,
# passed as TCONV_COMMIT.
# Run 437 verified the narrow / no-slide shifted-x grad_weight on TF32 L1-71 (2.155 ms fwd+bwd, 2.49x eager), fam05
# (4.959, 1.71x) and fam11 (4.123, 2.94x); its quick timings had fam01 at 10.94 ms and fam06 at 6.20 (not sliding at
# 4 stages). Here their verified bench rows, as far as the time left allows (fam06 only if fam01's leaves room).
source scripts/device_prelude.sh
bench_rows 390 fam01_convt2d_k3_1024x1024:tf32:90 fam06_convt2d_k3x5_128x256:tf32:60
device_finish
