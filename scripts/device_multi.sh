#!/usr/bin/env bash
# One GPU call that spreads independent jobs over the machine's GPUs: install and build once, then
# job i runs on GPU i (CUDA_VISIBLE_DEVICES=i), all in parallel, each bounded by JOB_TIMEOUT seconds.
# Jobs write into $WORK (exported); everything lands in $OUT/results.tgz, refreshed every 20 s so a
# call cut off at its limit still returns what finished. Timings from jobs that share a host are
# only compared within one job (one process), never across jobs.
# Usage: OUT=dir TCONV_COMMIT=<sha> bash scripts/device_multi.sh "JOB0 COMMAND" "JOB1 COMMAND" ...
#   e.g. "python3 -m tconv bench --suite all --precision tf32 --no-compile --runs 20 --warmup 3 --out \$WORK"
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
WORK="$(mktemp -d)"
export WORK PYTHONUNBUFFERED=1
export TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}"
export TCONV_BUILD_DIR="${TCONV_BUILD_DIR:-/tmp/tconv_build}"
mkdir -p "$OUT"
pack() { tar czf "$OUT/results.tgz" -C "$WORK" . 2>/dev/null; }

nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.mem,memory.used --format=csv > "$WORK/gpu.txt"
cat "$WORK/gpu.txt"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; pack; echo BUILD FAILED; exit 1; }
python3 -m tconv info > "$WORK/info.txt" 2>&1
pack

gpus=$(nvidia-smi --list-gpus | wc -l)
[ "$#" -le "$gpus" ] || { echo "$# jobs but $gpus GPUs"; exit 2; }
pids=()
i=0
for job in "$@"; do
  (
    echo "\$ $job"
    CUDA_VISIBLE_DEVICES=$i timeout "${JOB_TIMEOUT:-540}" bash -c "$job"
    echo "=== job $i exit $? ($(date +%T))"
  ) > "$WORK/job$i.log" 2>&1 &
  pids+=($!)
  i=$((i + 1))
done
while kill -0 "${pids[@]}" 2>/dev/null; do sleep 20; pack; done
wait
pack
for ((j = 0; j < i; j++)); do echo "--- job $j"; grep -E "^\[|passed|failed|error|Error|exit|results" "$WORK/job$j.log" | tail -40; done
