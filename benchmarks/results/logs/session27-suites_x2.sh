#!/usr/bin/env bash
# Prepared in session 27 (not run): two precisions of `tconv bench --suite all` at once on a two-GPU machine
# (nvidia-h100-x2 / nvidia-h200-x2), one job per GPU through scripts/device_multi.sh (one build). A suite is ~22 x 30 s,
# so each job resumes across calls. Each job's timings come from its own GPU and process: compare within a JSON only.
# First call:  COMMIT=<sha> P0=tf32 P1=bf16 bash benchmarks/results/logs/session27-suites_x2.sh
# Next calls:  the same plus R0=<job 0's JSON> R1=<job 1's JSON>, copied into the repository from results.tgz.
# The JSONs record tconv_sources; check them with `tconv digest --commit <sha>`.
set -uo pipefail
export TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>} TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
P0=${P0:-tf32} P1=${P1:-bf16}
# Seconds of new rows per job: the call's 600 s less the build (~210 s on a fresh machine, seconds on a warm one with
# /tmp/tconv_build kept) and one row's overrun (~60 s). First call 330; later calls on the warm machine ~480.
budget=${BENCH_BUDGET:-330}
job() {  # precision, resume file
  local resume=""; [ -n "$2" ] && resume="--resume $PWD/$2"
  echo "python3 -m tconv bench --suite all --precision $1 --no-compile --runs 20 --warmup 3 --time-budget $budget $resume --out \$WORK/$1"
}
JOB_TIMEOUT=$((budget + 60)) bash scripts/device_multi.sh "$(job "$P0" "${R0:-}")" "$(job "$P1" "${R1:-}")"
