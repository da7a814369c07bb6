#!/usr/bin/env bash
# Session 105, run 543 (one H200, cold; prepared in session 103; session 104 called it thirteen times, 07:52-09:52
# UTC: five starts failed, eight calls were refused at once; it never ran). Committed before the call; run with
# TCONV_COMMIT=<full sha>.
# The persistent unit-stride forward's staged store (TCONV_UNIT_STRIDE_PERSISTENT, development, default 0; session
# 103, compiled, never run): a tile of two or more stages is staged through the slots of its last two stages, which
# the MMA warps hold until the store is done (scripts/strip_ring_model.py staged=True); tiles of fewer stages store
# from registers as in run 541's form, which lost (L2-61's TF32 conv 0.883 -> 1.067 ms: 2x the L2 write sectors).
# 1. test_unit_stride_persistent_switch (10 cases now: one-stage and two-stage tiles added), bitwise against the
#    one-tile form, and test_unit_stride_specialized_64_switch (its persistent kernel: 128 rows a warpgroup, staged
#    in one chunk). Predicted: both pass.
# 2. memcheck / racecheck of scripts/unit_stride_persistent_sanitize.py (7 staged tiles, and tiles of one stage stored
#    from registers, on 3 persistent blocks), 128 and 64 channels.
# 3. A/B, TF32 quick timing: L2-61 and fam06, switch 0 / 1, and L2-61's kernel breakdown. Predicted: L2-61's conv
#    0.883 -> ~0.80-0.84 ms (the set-up, the first x loads and the launch of 19 of a block's ~20 tiles overlap the
#    MMAs; the staged store itself stays serial with them), fam06's forward 1.71 -> ~1.60.
# 4. ncu of L2-61's persistent conv: L2 write (compression input) sectors back to ~10.7 M (run 542: 22.1 M).
# ptxas (sm_90a): the fp32 persistent kernels 168 registers with 8 bytes of spills (0 without the register-store
# path for short tiles), the 64-channel ones 163 without; 16-bit ones 168 with 4-40 bytes.
source scripts/device_prelude.sh
left 300 && gpu_tests 200 persistent tests/test_conv_transpose_gpu.py "unit_stride_persistent_switch"
left 350 && gpu_tests 100 specialized_64 tests/test_conv_transpose_gpu.py "unit_stride_specialized_64_switch"
for cout in 128 64; do
  for tool in memcheck racecheck; do
    left 430 && TCONV_UNIT_STRIDE_PERSISTENT=3 TCONV_UNIT_STRIDE_SPECIALIZED_64=1 timeout 40 compute-sanitizer \
      --tool $tool --kernel-name kns=unit_stride_forward python3 scripts/unit_stride_persistent_sanitize.py $cout \
      > "$LOG/${tool}_$cout.log" 2>&1
    tail -2 "$LOG/${tool}_$cout.log"
  done
done
l2=l2_61_convt3d_relu_groupnorm
for v in 0 1; do left 460 && quick_time "persistent_$v" $l2 tf32 auto TCONV_UNIT_STRIDE_PERSISTENT=$v; done
breakdowns_ab 520 TCONV_UNIT_STRIDE_PERSISTENT "0 1" "unit_stride_forward|total" tf32 contiguous $l2
for v in 0 1; do
  left 540 && quick_time "persistent_$v" fam06_convt2d_k3x5_128x256 tf32 auto TCONV_UNIT_STRIDE_PERSISTENT=$v
done
TCONV_UNIT_STRIDE_PERSISTENT=1 ncu_kernel 590 l2_61_tf32_persistent $l2 tf32 strip_unit_stride_forward
grep -E "Compression Input Sectors" "$LOG/ncu_l2_61_tf32_persistent.txt" 2>/dev/null
device_finish
