#!/usr/bin/env bash
# The full measured run on a 4-GPU machine in one call (~10 min): GPU tests + sanitizers + half-precision
# GEMM timing (quick_timing, forced vs auto), then the suites, one job per GPU. Each bench job is its own process (timings compared within a job only).
# Usage: OUT=dir TCONV_COMMIT=<sha, from the development machine> bash scripts/device_full_run.sh
# (git on the GPU machine can be stale: run 170 recorded an older HEAD. Results also carry tconv_sources, the code
# files' digest; `tconv digest --commit <sha>` on the development machine says whether they match.)
# With fewer GPUs, run the jobs of scripts/device_multi.sh in several calls.
set -uo pipefail
B='python3 -m tconv bench --runs 20 --warmup 3 --out $WORK'
JOB_TIMEOUT="${JOB_TIMEOUT:-540}" exec bash "$(dirname "$0")/device_multi.sh" \
  "python3 -m pytest -q -rfE -p no:cacheprovider tests 2>&1 | tee \$WORK/pytest.log | tail -30; for t in memcheck racecheck; do compute-sanitizer --tool \$t python3 tests/sanitize_small.py > \$WORK/sanitizer_\$t.log 2>&1; tail -2 \$WORK/sanitizer_\$t.log; done; python3 scripts/quick_timing.py l1_68_convt3d_square_input_asym_kernel l1_71_convt2d_asym_input_square_kernel l2_61_convt3d_relu_groupnorm real_hifigan_up --precision bf16 fp16 --algorithm auto igemm --runs 10 --json \$WORK/quick_half.json 2>&1 | tee \$WORK/quick_half.log" \
  "$B --suite all --precision tf32 --no-compile 2>&1 | tee \$WORK/bench_tf32.log | grep -E '^\[|results'" \
  "$B --suite all --precision fp32 --no-compile 2>&1 | tee \$WORK/bench_fp32.log | grep -E '^\[|results'" \
  "$B --suite blocks --precision tf32 fp32 bf16 --no-compile 2>&1 | tee \$WORK/bench_blocks.log | grep -E '^\[|results'; $B --suite core --precision tf32 --compile 2>&1 | tee \$WORK/bench_compile.log | grep -E '^\[|results'; $B --suite core --precision bf16 --no-compile 2>&1 | tee \$WORK/bench_bf16.log | grep -E '^\[|results'"
