#!/usr/bin/env bash
# Session 91, run 489 (one H200, cold call), as prepared in session 90.
# Session 90 (runs 483-488): the persistent per-tap kernel is the default (fam06 fwd 1.625 -> 0.955 ms, VAE 0.316 ->
# 0.216, U-Net 3D 0.164 -> 0.118). Written after the device time, compiled and table-checked locally, never run:
# the gathers', unit-stride and grad_weight parts of conv_transpose_igemm.cu compile once per data type (fp32 units
# route fp16 / bf16 calls to *_fp16.cu / *_bf16.cu), and conv_transpose_grouped.cu in two units (16-bit calls to
# conv_transpose_grouped_16bit.cu). So first:
# 1. the build itself (prelude: "built after N s"; run 486's cold build: 266 s, its critical path grad_weight 255 s;
#    prediction ~100-130 s), then the grid tests that reach the three parts in every mode (a missing or misrouted
#    entry point fails here: fp32 / tf32 / fp16 / bf16 through the gathers, unit-stride forms and grad_weight);
# 2. the concurrent backward beside a persistent grad_input: the persistent per-tap and window kernels fill every SM
#    with looping blocks, and until this commit grad_input_persistent (conv_transpose.cpp) reported only the
#    unit-stride mma.sync grid, so grad_weight ran beside them on the side stream (run 389 measured that contention
#    on the unit-stride grid: fam08 3.495 concurrent against 2.959 serial). Evidence: run 488's kernels per fwd+bwd,
#    VAE 0.645 ms, against run 486's timed 1.214 (run 456: 0.884). Now they are reported, so the passes run one after
#    the other; TCONV_CONCURRENT_PERSISTENT_GRAD_INPUT=1 (read at import) restores session 90's concurrency: A / B,
#    after test_grad_input_persistent_names_the_launched_grid (the query against the kernels grad_input launches).
source scripts/device_prelude.sh
selection="(test_grid_forced_igemm and not window and not phase_split and not fold and not igemm_mma)"
selection+=" or gather_16bit or (test_grad_weight_shifted_x and (bf16 or fp16) and not where)"  # 732 tests
left 330 && gpu_tests 180 grid tests/test_conv_transpose_gpu.py "$selection"
left 420 && gpu_tests 90 grouped tests/test_conv_transpose_gpu.py \
  "(test_grid_grouped and ((contiguous and bf16) or (channels_last and fp16) or (contiguous and fp32)))"
left 480 && gpu_tests 60 grad_input_persistent tests/test_gather_tma_gpu.py "grad_input_persistent_names"
for problem in real_vae_up real_dcgan_up fam06_convt2d_k3x5_128x256 fam01_convt2d_k3_1024x1024; do
  for concurrent in 0 1; do
    left 560 && LAYOUT=channels_last quick_time "concurrent$concurrent" $problem bf16 auto \
      TCONV_CONCURRENT_PERSISTENT_GRAD_INPUT=$concurrent | tee -a "$LOG/timing.log"
  done
  # every backward serial: where it matches concurrent0, the query flipped these calls (whatever this call leaves
  # out, a warm second call runs: the loop alone)
  left 560 && LAYOUT=channels_last quick_time "serial" $problem bf16 auto TCONV_CONCURRENT_BACKWARD=0 \
    | tee -a "$LOG/timing.log"
done
device_finish
