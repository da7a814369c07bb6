#!/usr/bin/env bash
# Session 90, run 484 (warm after run 483: persistent per-tap fam06 fwd 1.625 -> 0.956 ms, test passed). Prepared in session 89.
# runs, fix these lines, commit BEFORE the call, pass TCONV_COMMIT=<literal full sha>).
# The persistent per-tap kernel's strided calls (TCONV_TMA_GATHER_PERSISTENT=1: every phase's tap table built once a
# block) and the refactored default per-tap path:
# 1. the TMA gather's contract tests (TF32 per-tap, 16-bit in place) and the paired-tiles switch test, which run the
#    default path that session 89's helpers (tma_block_setup, tma_gather_produce, tma_gather_mma) now carry;
# 2. racecheck of the persistent kernels on scripts/tma_gather_sanitize.py (their staging areas and named barriers);
# 3. channels-last bf16 quick timing of VAE, U-Net 3D and DCGAN under 0 / 1, and VAE with the 6-stage tile at one
#    block per SM (TCONV_TMA_SHORT_RING=0) persistent, since the short tile keeps only 2 stages beside its staging.
source scripts/device_prelude.sh
left 300 && gpu_tests 120 contract tests/test_gather_tma_gpu.py \
  "tma_gather_meets_the_contract or 16bit_in_place_meets_the_contract"
left 380 && gpu_tests 80 paired tests/test_gather_tma_gpu.py "gather_paired_tiles_switch"
left 420 && TCONV_TMA_GATHER_PERSISTENT=1 timeout 90 compute-sanitizer --tool racecheck --kernel-name kns=persistent \
  python3 scripts/tma_gather_sanitize.py > "$LOG/racecheck.log" 2>&1; tail -2 "$LOG/racecheck.log"
for problem in real_vae_up real_unet3d_up real_dcgan_up; do
  for persistent in 0 1; do
    left 560 && LAYOUT=channels_last quick_time "persistent$persistent" $problem bf16 auto \
      TCONV_TMA_GATHER_PERSISTENT=$persistent | tee -a "$LOG/timing.log"
  done
done
left 570 && LAYOUT=channels_last quick_time "ring6_persistent1" real_vae_up bf16 auto TCONV_TMA_SHORT_RING=0 \
  TCONV_TMA_GATHER_PERSISTENT=1 | tee -a "$LOG/timing.log"
device_finish
