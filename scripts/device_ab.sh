#!/usr/bin/env bash
# Same-machine A/B timing of two source trees (notes/perf.md, Session 9's method): builds this tree and
# the old one (unpacked beside it: git archive <rev> tconv | tar -x -C ab_old) in parallel into separate
# build directories, then runs scripts/quick_timing.py alternating new/old processes ROUNDS times.
# (The old run imports tconv before quick_timing puts this tree first on sys.path, so it keeps the old one.)
# Usage: OUT=dir ROUNDS=2 PRECISIONS="bf16 tf32" bash scripts/device_ab.sh ab_old stem...
# ab_old is excluded by .git/info/exclude: name it in the device call's `carry`, or the script stops (run 79
# compared the tree with itself before this check).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"; OLD="$(cd "$1" && pwd)" || { echo "no old tree at $1 (carry it)"; exit 2; }; shift
ROUNDS="${ROUNDS:-2}"; PRECISIONS="${PRECISIONS:-bf16}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}"
mkdir -p "$OUT"
if [ -z "${SKIP_BUILD:-}" ]; then
  # A killed build's lock on a warm machine (run 309); by hand, since the old tree's CLI may lack --break-lock.
  rm -f /tmp/tconv_build/*/lock /tmp/old_build/*/lock
  TCONV_BUILD_DIR=/tmp/tconv_build python3 -m tconv build > "$OUT/build_new.log" 2>&1 &
  new=$!
  (cd "$OLD" && TCONV_BUILD_DIR=/tmp/old_build PYTHONPATH="$OLD" python3 -m tconv build > "$OUT/build_old.log" 2>&1) &
  old=$!
  wait $new || { tail -30 "$OUT/build_new.log"; exit 1; }
  wait $old || { tail -30 "$OUT/build_old.log"; exit 1; }
fi
for round in $(seq 1 "$ROUNDS"); do
  (cd scripts && TCONV_BUILD_DIR=/tmp/tconv_build python3 quick_timing.py "$@" --precision $PRECISIONS --runs 10 \
    --warmup 2 --json "$OUT/ab_new_$round.json" | sed 's/^/new /')
  (cd scripts && TCONV_BUILD_DIR=/tmp/old_build PYTHONPATH="$OLD" python3 -c \
    "import runpy, sys, tconv; assert tconv.__file__.startswith('$OLD'), tconv.__file__; sys.argv = ['quick_timing.py'] + sys.argv[1:]; runpy.run_path('quick_timing.py', run_name='__main__')" \
    "$@" --precision $PRECISIONS --runs 10 --warmup 2 --json "$OUT/ab_old_$round.json" | sed 's/^/old /')
done
