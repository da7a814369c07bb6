#!/usr/bin/env bash
# Session 103, run 540 (one H200, cold); run with TCONV_COMMIT=<full sha of the commit it runs at, typed out>.
# Prepared in sessions 101-102. The second call: next-session-second-run.sh (the timings), which needs these to pass.
# Tests of unit-stride forward forms that no GPU has run:
# 0. the warp-specialized form's switch test in its 1 / 2 / 0 form (session 101, after its device time), with two
#    cases more since session 102 whose 16-bit x is loaded in position pairs (the specialized producer's new form);
# 1. the persistent kernel of that form (TCONV_UNIT_STRIDE_PERSISTENT, development, default 0; session 102): contract
#    with every gradient in TF32 / bf16 / fp16, its kernel ran, its output bitwise the one-tile form's, on 8 cases
#    (147 row tiles on 132 blocks; 3 blocks over 1-147 tiles; tiles with an empty tap hull; x pairs);
# 2. the specialized form on the 64-channel weights-as-A tile (TCONV_UNIT_STRIDE_SPECIALIZED_64, development, default
#    0; session 102) and its persistent kernel: the same checks on 6 cases with the half tile off;
# 3. memcheck and racecheck of a small TF32 forward (7 row tiles on 3 persistent blocks), 128 and 64 channels.
# Predicted: all pass (run 537's specialized test took 26 s for 4 cases x 2 values). A hang shows as the test's
# timeout (scripts/strip_ring_model.py models the ring's protocol).
source scripts/device_prelude.sh
left 250 && gpu_tests 150 specialized tests/test_conv_transpose_gpu.py "unit_stride_specialized_switch"
left 400 && gpu_tests 200 persistent tests/test_conv_transpose_gpu.py "unit_stride_persistent_switch"
left 470 && gpu_tests 150 specialized_64 tests/test_conv_transpose_gpu.py "unit_stride_specialized_64_switch"
small='import sys, torch, tconv
cout = int(sys.argv[1])
x = torch.randn(1, 64, 6, 8, 33, device="cuda"); w = torch.randn(64, cout, 3, 3, 3, device="cuda")
torch.backends.cudnn.allow_tf32 = True
with tconv._ops.use_algorithm("igemm_strip"):
    y = tconv.conv_transpose3d(x, w, torch.randn(cout, device="cuda"), padding=1)
torch.cuda.synchronize(); print("persistent forward ran", tuple(y.shape))'
for cout in 128 64; do
  for tool in memcheck racecheck; do
    left 560 && TCONV_UNIT_STRIDE_PERSISTENT=3 TCONV_UNIT_STRIDE_SPECIALIZED_64=1 timeout 40 compute-sanitizer \
      --tool $tool --kernel-name kns=unit_stride_forward python3 -c "$small" $cout > "$LOG/${tool}_$cout.log" 2>&1
    tail -2 "$LOG/${tool}_$cout.log"
  done
done
device_finish
