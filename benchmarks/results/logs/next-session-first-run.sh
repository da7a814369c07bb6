#!/usr/bin/env bash
# Prepared in session 89 for the next session's first GPU call (one H200; rename to sessionNN-runMMM.sh when it runs,
# fix these lines, commit BEFORE the call (the device tool copies the working tree, uncommitted edits included), pass
# TCONV_COMMIT=<literal full sha>, and leave the tree alone until the call has started).
# Session 89 (runs 479-482): the persistent short window tile, now the default (fam01 fwd 1.911 -> 1.256 ms verified,
# 0.92x eager; fam05 0.682, 1.01x). Written after its device time, never run: the persistent per-tap kernel
# (TCONV_TMA_GATHER_PERSISTENT=1, off by default), for fam06's forward (0.45x eager; run 482's ncu: 13 % at each
# block's tap-table barrier, ~25 % in its epilogue). Its refactor (setup / produce / MMA helpers) also moved the
# default per-tap kernels' code: every kernel's registers are unchanged (scripts/ptxas_registers.txt), but only the
# tests below run it.
# 1. the persistent per-tap test (bf16, fp16: contract with it on, bit-for-bit against off, launches), then the
#    16-bit in-place contract of the default per-tap kernels (bf16);
# 2. fam06 and L2-61 channels-last bf16 quick timing under TCONV_TMA_GATHER_PERSISTENT 0 / 1 (prediction, fam06's
#    forward: 1.61 -> ~1.0-1.1 ms), and fam06 under the 2-blocks-per-SM short tile (TCONV_TMA_SHORT_ITERATIONS=16) as
#    the other way to overlap one block's epilogue with another's MMAs.
# If the persistent kernel wins and its test passes: make it the default (tma_gather_persistent_enabled), commit, and
# run verified rows of fam06, L2-61 and the 16-bit paired-tiles test in the next (warm) call.
source scripts/device_prelude.sh
left 300 && gpu_tests 150 persistent tests/test_gather_tma_gpu.py "gather_persistent_switch"
left 400 && gpu_tests 90 in_place tests/test_gather_tma_gpu.py "16bit_in_place_meets_the_contract and bf16"
for setting in TCONV_TMA_GATHER_PERSISTENT=0 TCONV_TMA_GATHER_PERSISTENT=1 TCONV_TMA_SHORT_ITERATIONS=16; do
  left 500 && LAYOUT=channels_last quick_time "$setting" fam06_convt2d_k3x5_128x256 bf16 auto $setting \
    | tee -a "$LOG/timing.log"
done
for persistent in 0 1; do
  left 560 && LAYOUT=channels_last quick_time "persistent$persistent" l2_61_convt3d_relu_groupnorm bf16 auto \
    TCONV_TMA_GATHER_PERSISTENT=$persistent | tee -a "$LOG/timing.log"
done
device_finish
