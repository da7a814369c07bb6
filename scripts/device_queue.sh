#!/usr/bin/env bash
# One GPU call that measures suite rows from a shared queue on every GPU of the machine: install and build once,
# GPU 0 first runs $PREAMBLE (e.g. the GPU tests) if given, then each GPU takes the next (precision, problem)
# row and runs it as its own `tconv bench` process (so rows of one precision spread over GPUs and processes;
# each row still compares tconv with eager and cuDNN in one process, never across GPUs). No row starts with
# less than MIN_ROW_S seconds left before DEADLINE_S (seconds after the script starts); rows not started stay
# in $WORK/queue_left.txt, with any row cut off at the deadline (QUEUE_FILE runs them next time; rows are taken in
# the queue's order, so put the long ones first). At the end `tconv summary --merge` writes one results file per precision.
# Everything lands in $OUT/results.tgz, refreshed every 20 s, so a call cut off still returns what finished.
# Usage: OUT=dir TCONV_COMMIT=<sha> PRECISIONS="tf32 bf16 fp32" [PREAMBLE="cmd"] [SUITE=all]
#        [PROBLEMS="stem ..."] [QUEUE_FILE=file of "precision problem" lines, e.g. a queue_left.txt]
#        bash scripts/device_queue.sh
set -uo pipefail
start=$SECONDS
OUT="${OUT:-/tmp/tconv_out}"
WORK="$(mktemp -d)"
export WORK PYTHONUNBUFFERED=1
export TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}"
export TCONV_BUILD_DIR="${TCONV_BUILD_DIR:-/tmp/tconv_build}"
deadline=$(( start + ${DEADLINE_S:-565} ))
mkdir -p "$OUT" "$WORK/rows"
pack() { tar czf "$OUT/results.tgz" -C "$WORK" . 2>/dev/null; }

nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.mem,memory.used --format=csv > "$WORK/gpu.txt"
cat "$WORK/gpu.txt"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
MAX_JOBS="${MAX_JOBS:-$(nproc)}" python3 -m tconv build --break-lock > "$WORK/build.log" 2>&1 \
  || { tail -40 "$WORK/build.log"; pack; echo BUILD FAILED; exit 1; }
python3 -m tconv info > "$WORK/info.txt" 2>&1
echo "built after $(( SECONDS - start )) s"
pack

problems=${PROBLEMS:-$(python3 -c "import sys; sys.path.insert(0, 'problems'); import suites; print(' '.join(getattr(suites, '${SUITE:-all}'.upper())))")}
queue="$WORK/queue.txt"
if [ -n "${QUEUE_FILE:-}" ]; then
  grep -vE "^\s*$" "$QUEUE_FILE" > "$queue"
  PRECISIONS=$(awk '{print $1}' "$queue" | sort -u | tr '\n' ' ')
else
  : > "$queue"
  for precision in ${PRECISIONS:-tf32}; do
    for problem in $problems; do echo "$precision $problem" >> "$queue"; done
  done
fi
# The next row, removed from the queue under a lock; empty when none is left.
pop() { flock "$queue.lock" bash -c 'line=$(head -n 1 "$0"); [ -n "$line" ] && sed -i 1d "$0"; echo "$line"' "$queue"; }

worker() {
  local gpu=$1 item left precision problem
  if [ "$gpu" = 0 ] && [ -n "${PREAMBLE:-}" ]; then
    echo "\$ $PREAMBLE"
    CUDA_VISIBLE_DEVICES=$gpu timeout $(( deadline - SECONDS )) bash -c "$PREAMBLE"
    echo "=== preamble exit $? ($(( SECONDS - start )) s)"
  fi
  while :; do
    left=$(( deadline - SECONDS ))
    [ "$left" -gt "${MIN_ROW_S:-60}" ] || { echo "=== stop: ${left} s left"; break; }
    item=$(pop)
    [ -n "$item" ] || { echo "=== queue empty"; break; }
    read -r precision problem <<< "$item"
    echo "=== $precision $problem on GPU $gpu ($(( SECONDS - start )) s)"
    CUDA_VISIBLE_DEVICES=$gpu timeout "$left" python3 -m tconv bench "$problem" --precision "$precision" \
      --no-compile --runs "${RUNS:-20}" --warmup "${WARMUP:-3}" --out "$WORK/rows/${precision}_$problem" 2>&1 \
      | grep -vE "^\s*$"
    status=${PIPESTATUS[0]}
    echo "=== exit $status ($(( SECONDS - start )) s)"
    # A row cut off at the deadline leaves no usable file (run 269: an empty JSON stopped the summary): back
    # to the queue's leftovers.
    if [ "$status" = 124 ]; then
      rm -rf "$WORK/rows/${precision}_$problem"
      flock "$queue.lock" bash -c 'echo "$1" >> "$0"' "$WORK/queue_cut.txt" "$item"
    fi
  done
}

gpus=$(nvidia-smi --list-gpus | wc -l)
pids=()
for ((g = 0; g < gpus; g++)); do
  worker "$g" > "$WORK/worker$g.log" 2>&1 &
  pids+=($!)
done
while kill -0 "${pids[@]}" 2>/dev/null; do sleep 20; pack; done
wait
cat "$WORK/queue_cut.txt" "$queue" > "$WORK/queue_left.txt" 2>/dev/null
for precision in ${PRECISIONS:-tf32}; do
  files=$(ls "$WORK"/rows/"${precision}"_*/bench_*.json 2>/dev/null)
  [ -n "$files" ] || continue
  python3 -m tconv summary $files --suite "${SUITE:-all}" --merge "$WORK/merged_$precision.json" \
    --json "$WORK/summary_$precision.json" > "$WORK/summary_$precision.txt" 2>&1
  cat "$WORK/summary_$precision.txt"
done
pack
grep -h "^\[1/1\]\|preamble\|ERROR\|Error" "$WORK"/worker*.log | cut -c1-220
echo "rows left: $(wc -l < "$WORK/queue_left.txt"); done after $(( SECONDS - start )) s"
