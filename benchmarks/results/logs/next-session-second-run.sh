#!/usr/bin/env bash
# Prepared in sessions 104-105 as the call after the first run (the machine warm; rename to sessionNN-runMMM.sh
# when it runs, commit BEFORE the call, pass TCONV_COMMIT=<full sha, typed out>). Session 106 ran run 544 in its
# place (the ring's default); the staged store lost in run 543, so its items 1-2 matter less. Never ran. Session 107
# dropped what run 544 did (the ring's racecheck, its fam06 / fam05 A/B) and the unit-16 A/B, which since the ring
# became the rule in 3D compares the ring at unit 32 against the measured kernel at 16, not the question it asked. The
# 16-bit x per position timing moved to next-session-first-run.sh (session 107).
# 1. memcheck / racecheck of scripts/unit_stride_persistent_sanitize.py (the persistent staged store: 7 staged tiles
#    and tiles of one stage stored from registers, on 3 persistent blocks), 128 and 64 channels, and
#    test_unit_stride_specialized_64_switch. Predicted: 0 errors / hazards, pass.
# 2. ncu of L2-61's persistent conv: L2 write (compression input) sectors back to ~10.7 M (run 542: 22.1 M).
# 3. Verified TF32 rows (contiguous) in what is left: L2-61 and fam06 first, then the rows older than session 100's
#    kernels. Predicted: within 3 % of their newest rows where no default changed since.
source scripts/device_prelude.sh
for cout in 128 64; do
  for tool in memcheck racecheck; do
    left 150 && TCONV_UNIT_STRIDE_PERSISTENT=3 TCONV_UNIT_STRIDE_SPECIALIZED_64=1 timeout 40 compute-sanitizer \
      --tool $tool --kernel-name kns=unit_stride_forward python3 scripts/unit_stride_persistent_sanitize.py $cout \
      > "$LOG/${tool}_$cout.log" 2>&1
    tail -2 "$LOG/${tool}_$cout.log"
  done
done
left 240 && gpu_tests 80 specialized_64 tests/test_conv_transpose_gpu.py "unit_stride_specialized_64_switch"
l2=l2_61_convt3d_relu_groupnorm
TCONV_UNIT_STRIDE_PERSISTENT=1 ncu_kernel 340 l2_61_tf32_persistent $l2 tf32 strip_unit_stride_forward
grep -E "Compression Input Sectors" "$LOG/ncu_l2_61_tf32_persistent.txt" 2>/dev/null
bench_budget 585 tf32 contiguous $l2 fam06_convt2d_k3x5_128x256 \
  l1_71_convt2d_asym_input_square_kernel l1_73_convt3d_strided_padded_grouped \
  l1_72_convt3d_asym_kernel_strided_padded_grouped fam02_convt3d_k3x5x7_16x32x64 fam05_convt2d_k3x7_512x512 \
  fam11_convt2d_k3x7_p1x3_512x1024 fam08_convt1d_k5_d3_131072 fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 \
  fam10_convt3d_k3_s2_p1_d2_16x32x32 fam12_convt1d_k3_s2_p1_d2_131072
device_finish
