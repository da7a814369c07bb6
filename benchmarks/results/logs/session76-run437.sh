#!/usr/bin/env bash
# Session 76, run 437 (one H200; the session's last device time). Run at the commit that adds this name, passed as
# TCONV_COMMIT.
# Run 436: not sliding the shifted-x grad_output rows won on TF32 where the kernel has 4 stages (fp32 at unit 32 in
# wide rows: fam01, fam05, fam06, fam03) and lost where it has 6 (unit 16 or the narrow rows: L1-68, L2-61, fam02,
# L1-71); bf16 (8 stages) gains from sliding. This commit: slide with >= kShiftedXSlideMinStages (6) stages. Its slide
# test failed on its own assertion (a narrow case that no mode runs on the shifted-x kernel), now counted instead.
# 1. the slide and narrow tests;
# 2. TF32 fwd+bwd under the rule on the rows without a bench row here (fam01, fam06, fam03: expect run 436's
#    not-sliding 10.95, 6.19, 6.47 ms);
# 3. verified bench rows (eager and tconv, same process) of TF32 L1-71, fam05 and fam11 (the narrow form / no slide).
source scripts/device_prelude.sh
left 300 && timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "shifted_x_narrow or shifted_x_slide" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
left 420 && (cd scripts && timeout 60 python3 quick_timing.py fam01_convt2d_k3_1024x1024 fam06_convt2d_k3x5_128x256 \
  fam03_convt3d_k3_64x64x64 --precision tf32 --runs 10 --warmup 2 2>&1 | grep -v Warn | tee "$LOG/timing.log")
bench_rows 590 l1_71_convt2d_asym_input_square_kernel:tf32:60 fam05_convt2d_k3x7_512x512:tf32:60 \
  fam11_convt2d_k3x7_p1x3_512x1024:tf32:60
device_finish
