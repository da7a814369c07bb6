#!/usr/bin/env bash
# Prepared in session 59 for the next session's first GPU call (one H200; rename to sessionNN-runMMM.sh when it runs).
# Run 370 found tconv's fwd+bwd issued at the GPU's pace or slower on the sub-millisecond bf16 rows (U-Net block: host
# 0.77-1.26 ms per run against 0.98 ms of GPU; U-Net 3D 0.31-1.13 against 0.64), so `tconv bench` medians of those rows
# follow the host (run 369: block 1.830 ms against 0.983 in run 370). Where the host time goes, per fwd+bwd, in both
# precisions: scripts/host_overhead.py (host ms behind a GPU sleep, GPU ms, cProfile, each entry point's host time and
# the torch.profiler host-side events), for U-Net 3D, its block and DCGAN; then the same with --noop-extension (the
# Python, autograd and allocation alone). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
(cd scripts
 for precision in bf16 tf32; do
   timeout 120 python3 host_overhead.py real_unet3d_up real_unet3d_up_block real_dcgan_up --precision $precision \
     --iters 40 --cprofile 25 --entry-points --host-api 25 2>&1 | grep -v Warn | cut -c1-200
 done
 timeout 60 python3 host_overhead.py real_unet3d_up_block --precision bf16 --iters 40 --noop-extension --cprofile 25 \
   2>&1 | grep -v Warn | cut -c1-200) 2>&1 | tee "$LOG/host_overhead.log"
device_finish
