#!/usr/bin/env bash
# Session 59, run 370 (one H200, the session's last ~340 s of device time): why bf16 U-Net 3D and its block spread so
# widely in fwd+bwd (run 369: p20-p80 0.635-0.805 and 1.552-1.904 ms; session 58's block 1.075-1.593) while their
# kernels sum steadily (run 367). scripts/bench_host_trace.py: per timed run the host ms beside the GPU ms, and the
# caching allocator's cudaMalloc / cudaFree counts during each timing. Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
(cd scripts
 for stem in real_unet3d_up_block real_unet3d_up; do
   timeout 45 python3 bench_host_trace.py $stem --precision bf16 --runs 20 2>&1 | grep -v Warn | cut -c1-900
 done) 2>&1 | tee "$LOG/host_trace.log"
device_finish
