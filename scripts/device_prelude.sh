# Sourced by a one-GPU call's script (benchmarks/results/logs/session*-run*.sh): the environment, $OUT/logs as $LOG,
# the GPU's name, the editable install and the build (its log dropped at the end by device_finish). Exits the call
# if the build fails. Afterwards `device_finish` packs $LOG into $OUT/logs.tgz (the device tool returns few files).
#   source scripts/device_prelude.sh; ...; device_finish
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
LOG="$OUT/logs"; mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}" \
  TCONV_BUILD_DIR="${TCONV_BUILD_DIR:-/tmp/tconv_build}"
start=$(date +%s)
# Whether the call is still before END_S seconds from its start: `left END_S && part`, so each part starts only if
# its timeout can end in time (every run script defined this itself until session 68).
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# The device's copy has no .git: without TCONV_COMMIT (computed on the development machine) a bench JSON records
# "unknown" (run 570's did; its tconv_sources digest was the only tie to a commit).
[ -n "${TCONV_COMMIT:-}" ] || echo "warning: TCONV_COMMIT unset: bench JSONs will record tconv_commit unknown"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$LOG/build.log" 2>&1 || { tail -30 "$LOG/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
device_finish() {
  rm -f "$LOG/build.log"
  # each translation unit's compile time (ninja's log: start and end ms, target), to find the build's critical path
  find "$TCONV_BUILD_DIR" -name .ninja_log -exec cp {} "$LOG/ninja_log.txt" \; 2>/dev/null
  tar -czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$LOG"
  echo "total $(( $(date +%s) - start )) s"
}
# Verified bench rows, one `tconv bench` process each, while the call has time: bench_rows END_S stem:precision:limit
# ... runs a row only if it can end (its limit in seconds) by END_S after the start; logs to $LOG/bench.log.
bench_rows() {
  local end_s="$1" row stem precision limit; shift
  for row in "$@"; do
    IFS=: read -r stem precision limit <<< "$row"
    [ $(( $(date +%s) - start + limit )) -lt "$end_s" ] || continue
    timeout "$limit" python3 -m tconv bench "$stem" --precision "$precision" --no-compile --runs 20 --warmup 3 \
      --out "$OUT" 2>&1 | grep -vE "^\s*$" | tee -a "$LOG/bench.log" | grep -v "^chart\|^results"
    # run 430's two rows ended at their limits with nothing but the banner in the log (and an empty JSON)
    [ "${PIPESTATUS[0]}" = 124 ] && echo "bench row $stem $precision: ran past its ${limit} s limit, no row" \
      | tee -a "$LOG/bench.log"
  done
  find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
  rm -f "$OUT"/*.png
}
# GPU tests: gpu_tests LIMIT LOG_NAME FILE -k-EXPRESSION runs `pytest FILE -k EXPRESSION` for at most LIMIT seconds
# into $LOG/LOG_NAME.log and prints its verdict lines.
gpu_tests() {
  local limit="$1" name="$2" file="$3" expression="$4"
  timeout "$limit" python3 -m pytest -q -p no:cacheprovider "$file" --tb=short -k "$expression" > "$LOG/$name.log" 2>&1
  grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/$name.log" | cut -c1-300 | tail -12
}
# One tagged quick_timing.py line (10 runs, 45 s at most): [LAYOUT=channels_last] quick_time LABEL PROBLEM PRECISION
# ALGORITHM [NAME=value ...]
quick_time() {
  local label="$1" problem="$2" precision="$3" algorithm="$4"; shift 4
  (cd scripts && env "$@" timeout 45 python3 quick_timing.py "$problem" --precision "$precision" \
    --algorithm "$algorithm" --layout "${LAYOUT:-contiguous}" --runs 10 --warmup 2 2>&1 | grep -v Warn \
    | sed "s/^/$label /")
}
# Kernel breakdowns, 40 s at most each, while each can end by END_S after the start, into $LOG/breakdown.log, then
# their first lines: breakdowns END_S PRECISION LAYOUT PROBLEM ...
breakdowns() {
  local end_s="$1" precision="$2" layout="$3" problem; shift 3
  for problem in "$@"; do
    left $(( end_s - 40 )) && timeout 40 python3 scripts/kernel_breakdown.py "$problem" --precision "$precision" \
      --layout "$layout" --iters 2 2>&1 | grep -v Warn >> "$LOG/breakdown.log"
  done
  grep -A5 "^==" "$LOG/breakdown.log" 2>/dev/null | cut -c1-150
}
# A/B kernel breakdowns under a development switch, 40 s at most each, while each can end by END_S after the start,
# into $LOG/breakdown.log, each block's header tagged SWITCH_VALUE (lower case), then the headers and the lines that
# match GREP: breakdowns_ab END_S SWITCH "VALUES" GREP PRECISION LAYOUT PROBLEM ...
breakdowns_ab() {
  local end_s="$1" switch="$2" values="$3" pattern="$4" precision="$5" layout="$6" problem value tag; shift 6
  tag=$(echo "${switch#TCONV_}" | tr 'A-Z' 'a-z')
  for problem in "$@"; do
    for value in $values; do
      left $(( end_s - 40 )) && env "$switch=$value" timeout 40 python3 scripts/kernel_breakdown.py "$problem" \
        --precision "$precision" --layout "$layout" --iters 2 2>&1 | grep -v Warn | sed "s/^==/== ${tag}_$value/" \
        >> "$LOG/breakdown.log"
    done
  done
  grep -E "^== ${tag}_|$pattern" "$LOG/breakdown.log" 2>/dev/null | cut -c1-150
}
# Nsight Compute sections of one kernel (the first launch matching REGEX in quick_timing.py's warm-up fwd+bwd: a
# forward kernel where the forward runs one), 90 s at most if it can end by END_S after the start, into
# $LOG/ncu_NAME.txt, then their headline lines: ncu_kernel END_S NAME PROBLEM PRECISION REGEX. --clock-control none:
# ncu would otherwise lock the GPU's clocks to base.
ncu_kernel() {
  local end_s="$1" name="$2" problem="$3" precision="$4" regex="$5"
  left $(( end_s - 90 )) || return 0
  timeout 90 ncu --clock-control none -k "regex:$regex" --launch-skip 0 --launch-count 1 --section SpeedOfLight \
    --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats \
    --section LaunchStats python3 scripts/quick_timing.py "$problem" --precision "$precision" --runs 1 --warmup 1 \
    > "$LOG/ncu_$name.txt" 2>&1
  grep -E "Duration|Throughput|Pipe|Achieved Occupancy|Registers Per|Stall|Shared" "$LOG/ncu_$name.txt" \
    | cut -c1-140 | head -40
}
# Source counters (per SASS instruction: executions and warp-stall samples) of one kernel, as ncu_kernel picks it,
# 100 s at most if it can end by END_S after the start, gzipped into $LOG/src_NAME.csv.gz with its summary
# (scripts/ncu_source_summary.py) beside it: ncu_source_kernel END_S NAME PROBLEM PRECISION LAYOUT REGEX
ncu_source_kernel() {
  local end_s="$1" name="$2" problem="$3" precision="$4" layout="$5" regex="$6"
  left $(( end_s - 100 )) || return 0
  timeout 100 ncu --clock-control none -k "regex:$regex" --launch-skip 0 --launch-count 1 --section SourceCounters \
    --section WarpStateStats --import-source no --page source --print-source sass --csv \
    python3 scripts/quick_timing.py "$problem" --precision "$precision" --runs 1 --warmup 1 --layout "$layout" \
    > "$LOG/src_$name.csv" 2> "$LOG/src_$name.err"
  gzip -f "$LOG/src_$name.csv"
  python3 scripts/ncu_source_summary.py "$LOG/src_$name.csv.gz" --top 12 > "$LOG/src_$name.summary.txt" 2>&1
  head -30 "$LOG/src_$name.summary.txt" | cut -c1-150
}
# Verified bench rows in one `tconv bench` process under a time budget that ends by END_S after the start, into
# $LOG/bench_LAYOUT.log: bench_budget END_S PRECISION LAYOUT PROBLEM ...
bench_budget() {
  local end_s="$1" precision="$2" layout="$3"; shift 3
  local budget=$(( end_s - ($(date +%s) - start) ))
  [ "$budget" -gt 30 ] && timeout $(( budget + 40 )) python3 -m tconv bench "$@" --precision "$precision" \
    --layout "$layout" --no-compile --runs 20 --warmup 3 --time-budget "$budget" --out "$OUT" 2>&1 \
    | grep -vE "^\s*$" | tee "$LOG/bench_$layout.log" | grep -v "^chart\|^results\|^resume"
  find "$OUT" -maxdepth 1 -name 'bench_*.json' -empty -delete
  rm -f "$OUT"/*.png
}
