#!/usr/bin/env bash
# Same-build A/B of a development switch (an environment variable read by tconv, e.g. TCONV_GRAD_WEIGHT_ORDERED,
# TCONV_PHASE_SPLIT_EDGES, TCONV_GRAD_WEIGHT_BALANCE): scripts/quick_timing.py in alternating processes, one per
# value, ROUNDS times, so a switch read once per process is measured without a second build.
# Usage: OUT=dir SWITCH=TCONV_GRAD_WEIGHT_ORDERED VALUES="1 0" ROUNDS=2 PRECISIONS="tf32 bf16" \
#        bash scripts/device_switch_ab.sh stem...
# Lines are prefixed "SWITCH=value"; JSON rows go to $OUT/switch_<value>_<round>.json.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"; SWITCH="${SWITCH:?name the environment variable}"; VALUES="${VALUES:-1 0}"
ROUNDS="${ROUNDS:-2}"; PRECISIONS="${PRECISIONS:-tf32}"
export PYTHONUNBUFFERED=1
mkdir -p "$OUT"
for round in $(seq 1 "$ROUNDS"); do
  for value in $VALUES; do
    (cd scripts && env "$SWITCH=$value" python3 quick_timing.py "$@" --precision $PRECISIONS --runs 10 --warmup 2 \
      --json "$OUT/switch_${value}_${round}.json" | sed "s/^/$SWITCH=$value /")
  done
done
