#!/usr/bin/env bash
# Session 90, run 483 (one H200, cold call): prepared in session 89 as next-session-first-run.sh.
# Session 89 (runs 479-482): the persistent short window tile, now the default (fam01 fwd 1.911 -> 1.256 ms verified,
# 0.92x eager; fam05 0.682, 1.01x). Written after its device time, never run: the persistent per-tap kernel
# (TCONV_TMA_GATHER_PERSISTENT=1, off by default), for fam06's forward (0.45x eager; run 482's ncu: 13 % at each
# block's tap-table barrier, ~25 % in its epilogue) and strided calls (VAE, U-Net 3D, DCGAN:
# next-session-persistent-strided-run.sh times those). Its refactor (setup / produce / MMA helpers) also moved the
# default per-tap kernels' code: every kernel's registers are unchanged (scripts/ptxas_registers.txt), but only the
# tests below run it.
# 1. the persistent per-tap test (bf16, fp16: contract with it on, bit-for-bit against off, launches);
# 2. fam06 channels-last bf16 quick timing under TCONV_TMA_GATHER_PERSISTENT 0 / 1 (prediction, forward: 1.61 ->
#    ~1.0-1.1 ms);
# 3. memcheck of the persistent kernels (scripts/tma_gather_sanitize.py's 16-bit part; the window's is on by default);
# 4. fam06 under the 2-blocks-per-SM short tile (TCONV_TMA_SHORT_ITERATIONS=16), the other way to overlap one block's
#    epilogue with another's MMAs, and L2-61 under 0 / 1, while the call has time.
# If the persistent kernel wins and its test passes: make it the default (tma_gather_persistent_enabled), commit, and
# in the next (warm) call run next-session-persistent-strided-run.sh (the TMA gather's contract tests and the
# paired-tiles test on the refactored default per-tap path, racecheck, the strided A/Bs), then verified rows of fam06
# and L2-61. Otherwise the strided script's tests still run next: the refactor stands either way.
source scripts/device_prelude.sh
left 300 && gpu_tests 150 persistent tests/test_gather_tma_gpu.py "gather_persistent_switch"
for persistent in 0 1; do
  left 450 && LAYOUT=channels_last quick_time "persistent$persistent" fam06_convt2d_k3x5_128x256 bf16 auto \
    TCONV_TMA_GATHER_PERSISTENT=$persistent | tee -a "$LOG/timing.log"
done
left 480 && TCONV_TMA_GATHER_PERSISTENT=1 timeout 90 compute-sanitizer --tool memcheck --kernel-name kns=persistent \
  python3 scripts/tma_gather_sanitize.py > "$LOG/memcheck.log" 2>&1; tail -2 "$LOG/memcheck.log"
left 520 && LAYOUT=channels_last quick_time "short16" fam06_convt2d_k3x5_128x256 bf16 auto \
  TCONV_TMA_SHORT_ITERATIONS=16 | tee -a "$LOG/timing.log"
for persistent in 0 1; do
  left 560 && LAYOUT=channels_last quick_time "persistent$persistent" l2_61_convt3d_relu_groupnorm bf16 auto \
    TCONV_TMA_GATHER_PERSISTENT=$persistent | tee -a "$LOG/timing.log"
done
device_finish
