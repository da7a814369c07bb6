#!/usr/bin/env bash
# The measured run for a nearly spent device budget (~7 min on a 4-GPU machine): the kernel tests
# + memcheck, the TF32 suite split over two GPUs (core + real | family), and fp32 real + blocks + core
# bf16 on the fourth. Each bench job is its own process (timings compared within a job only).
# Usage: OUT=dir TCONV_COMMIT=<sha, from the development machine> bash scripts/device_short_run.sh
# (git on the GPU machine can be stale: run 170 recorded an older HEAD. Results also carry tconv_sources, the code
# files' digest; `tconv digest --commit <sha>` on the development machine says whether they match.)
set -uo pipefail
B='python3 -m tconv bench --runs 20 --warmup 3 --out $WORK'
JOB_TIMEOUT="${JOB_TIMEOUT:-390}" exec bash "$(dirname "$0")/device_multi.sh" \
  "compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > \$WORK/sanitizer_memcheck.log 2>&1; tail -2 \$WORK/sanitizer_memcheck.log; python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py 2>&1 | tee \$WORK/pytest.log | tail -15" \
  "$B l1_68_convt3d_square_input_asym_kernel l1_73_convt3d_strided_padded_grouped l1_71_convt2d_asym_input_square_kernel l1_72_convt3d_asym_kernel_strided_padded_grouped l2_61_convt3d_relu_groupnorm real_unet3d_up real_dcgan_up real_hifigan_up real_vae_up --precision tf32 --no-compile 2>&1 | tee \$WORK/bench_tf32_core_real.log | grep -E '^\[|results'" \
  "$B --suite family --precision tf32 --no-compile 2>&1 | tee \$WORK/bench_tf32_family.log | grep -E '^\[|results'" \
  "$B --suite real --precision fp32 --no-compile 2>&1 | tee \$WORK/bench_fp32_real.log | grep -E '^\[|results'; $B --suite blocks --precision tf32 bf16 --no-compile 2>&1 | tee \$WORK/bench_blocks.log | grep -E '^\[|results'; $B --suite core --precision bf16 --no-compile 2>&1 | tee \$WORK/bench_bf16.log | grep -E '^\[|results'"
