#!/usr/bin/env bash
# Session 68, run 407 (one H200). b8b649c makes the tap-pairs half tile the rule (K >= 1024; fp32 also K <= 4096).
# 1. The unit-stride GPU tests at the rule (the tap-pairs half-tile test under the switch's 1, 2 and 0).
# 2. Verified bench rows where the rule changes a pass or the row is stale: fam07 TF32 (row 609f779, 20.0 ms fwd+bwd,
#    before the swap rule), fam02 bf16 (f+b 0.83x row from a96b82f), fam07 bf16, L1-68 bf16, fam02 TF32, while the
#    call has time.
# Pass TCONV_COMMIT=<literal sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 120 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "unit_stride" --tb=short \
  > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest.log" | tail -12
echo "== bench at $(( $(date +%s) - start )) s"
bench_rows 515 fam07_convt3d_k3_96x96x96:tf32:90 fam02_convt3d_k3x5x7_16x32x64:bf16:40 \
  fam07_convt3d_k3_96x96x96:bf16:90 l1_68_convt3d_square_input_asym_kernel:bf16:70 \
  fam02_convt3d_k3x5x7_16x32x64:tf32:40
device_finish
