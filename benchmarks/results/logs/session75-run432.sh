#!/usr/bin/env bash
# Session 75, run 432 (one H200). Run at the commit that adds this name, passed as TCONV_COMMIT.
# Run 431: the wgmma grad_weight forced beyond the mma.sync kernel's 64 channels won on bf16 fam04 (7.013 -> 6.717 ms
# fwd+bwd) and fam06 (3.918 -> 3.905), so "auto" now takes the wgmma form up to 128 channels a side.
# 1. The rule's test (its new 128-channel cases), the wgmma grad_weight against float64 at 128 channels.
# 2. A serial TF32 census (TCONV_CONCURRENT_BACKWARD=0) of DCGAN, HiFi-GAN and fam04: run 431's census ran the two
#    backward passes at once, so its grad_input / grad_weight / pack times overlap.
# 3. Verified bf16 rows: fam04 and fam06 under the new rule, fam01 under run 429's (run 430's ran past its limit).
source scripts/device_prelude.sh
left 330 && timeout 100 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "unit_stride_mma_grad_weight_where_planned or unit_stride_wgmma_grad_weight" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
left 400 && (cd scripts && TCONV_CONCURRENT_BACKWARD=0 timeout 45 python3 kernel_breakdown.py real_dcgan_up \
  real_hifigan_up fam04_convt1d_k3_65536 --precision tf32 --iters 3 --json "$LOG/census_serial_tf32.json" 2>&1 \
  | grep -v Warn) > "$LOG/census_serial_tf32.log"
[ -f "$LOG/census_serial_tf32.log" ] && grep -A7 "^==" "$LOG/census_serial_tf32.log" | cut -c1-140
bench_rows 585 fam04_convt1d_k3_65536:bf16:90 fam06_convt2d_k3x5_128x256:bf16:60 fam01_convt2d_k3_1024x1024:bf16:120
device_finish
