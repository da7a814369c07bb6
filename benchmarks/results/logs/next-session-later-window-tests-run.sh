#!/usr/bin/env bash
# Prepared in session 87 (kept by sessions 88-92) for a later GPU call (one H200; rename to
# sessionNN-runMMM.sh when it runs, fix these lines, commit BEFORE the call, pass TCONV_COMMIT=<literal full sha>).
# The 16-bit window's switch tests in full: they have never been seen to finish on a GPU (run 470: cut by its limit
# with 55 of 63+ passed; run 473: nothing printed in 60 s). Each case spawns two or three processes (~10 s each), so
# they get ~300 s here (session 88's run 478 passed the two cases whose expectations the wide-line rule changed;
# session 89's run 482 passed 4 cases in 150 s before its limit). Then a channels-last bf16 row while the call has
# time.
source scripts/device_prelude.sh
left 250 && gpu_tests 150 window_auto tests/test_gather_tma_gpu.py "window_16bit_auto_switch"
left 400 && gpu_tests 150 window_short tests/test_gather_tma_gpu.py "window_short_tile_switch or window_16bit_is"
bench_budget 570 bf16 channels_last fam01_convt2d_k3_1024x1024
device_finish
