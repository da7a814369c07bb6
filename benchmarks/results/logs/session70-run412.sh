#!/usr/bin/env bash
# Session 70, run 412 (one H200): the lean shifted-x grad_weight by rule (TF32 data pack up to 2 grad_output row slots
# where that lowers the row tiles: fam02 and L1-68's swapped way; everything else keeps the measured kernel) after run
# 411's same-build A/B (fwd+bwd ms, LEAN 0 / 2: fam02 TF32 2.491 / 2.120, L1-68 TF32 20.81 / 19.63). The swap rule
# now counts both ways at one slot, so its choices stay as measured.
# 1. Verified bench rows: L1-68 TF32 (the 4x fwd+bwd target: <= 20.26 ms) and fam02 TF32.
# 2. GPU tests -k "grad_weight_swapped or grad_weight_shifted_x" (the lean test now also checks the rule unset).
# 3. Memcheck of sanitize_small.py's shifted-x kernels at the default (its TF32 packed case now packs).
# Pass TCONV_COMMIT=<literal sha>. Each part starts only if its timeout ends by ~570 s, so device_finish always runs.
source scripts/device_prelude.sh
bench_rows 420 l1_68_convt3d_square_input_asym_kernel:tf32:100 fam02_convt3d_k3x5x7_16x32x64:tf32:45
left 370 && timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "grad_weight_swapped or grad_weight_shifted_x" --tb=short > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest.log" | tail -8
left 535 && timeout 35 compute-sanitizer --tool memcheck --kernel-name kns=shifted_x python3 tests/sanitize_small.py \
  > "$LOG/memcheck.log" 2>&1
[ -f "$LOG/memcheck.log" ] && tail -1 "$LOG/memcheck.log"
device_finish
