#!/usr/bin/env bash
# Session 90, run 485 (one H200, cold call; run 484 never started: no machine). The persistent per-tap kernel is now
# the default (run 483: its test 2 passed, memcheck 0 errors, fam06 channels-last bf16 forward 1.625 -> 0.956 ms).
# 1. the TMA gather's contract tests (TF32 and 16-bit in place) and the paired-tiles test on the refactored per-tap
#    path under the new default; racecheck of the persistent kernels;
# 2. VAE, U-Net 3D and DCGAN channels-last bf16 quick timing under TCONV_TMA_GATHER_PERSISTENT 0 / 1 (the strided
#    calls it now takes: if any is slower, the next commit narrows where it runs);
# 3. a verified channels-last bf16 row of fam06 while the call has time.
source scripts/device_prelude.sh
left 300 && gpu_tests 120 contract tests/test_gather_tma_gpu.py \
  "tma_gather_meets_the_contract or 16bit_in_place_meets_the_contract"
left 380 && gpu_tests 80 paired tests/test_gather_tma_gpu.py "gather_paired_tiles_switch"
for problem in real_vae_up real_unet3d_up real_dcgan_up; do
  for persistent in 0 1; do
    left 480 && LAYOUT=channels_last quick_time "persistent$persistent" $problem bf16 auto \
      TCONV_TMA_GATHER_PERSISTENT=$persistent | tee -a "$LOG/timing.log"
  done
done
left 500 && timeout 90 compute-sanitizer --tool racecheck --kernel-name kns=persistent \
  python3 scripts/tma_gather_sanitize.py > "$LOG/racecheck.log" 2>&1; tail -2 "$LOG/racecheck.log"
bench_budget 580 bf16 channels_last fam06_convt2d_k3x5_128x256
device_finish
