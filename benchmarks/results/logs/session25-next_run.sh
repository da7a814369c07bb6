#!/usr/bin/env bash
# Prepared in session 25 for the next session's device calls (not run): a complete suite in one precision at the
# final commit, over as many calls as it takes. The bf16 and exact-fp32 suites were last complete at 9ca2807 (session
# 15; their core rows re-run at 68e7922); since then the unit-stride strip forms, the W fold at any stride (fp32
# data), and the wgmma grad_weight's packed taps and 48-wide tile (all dtypes) changed what runs.
# First call:  COMMIT=<sha from the development machine> PRECISION=bf16 bash <this script>
# Next calls, on the machine the previous one left warm (within ~30 s):
#              COMMIT=<sha> PRECISION=bf16 SKIP_BUILD=1 RESUME_FROM=<the previous JSON, copied into the repository> \
#              bash <this script>
# The commit comes from the development machine: git on the GPU machine can be stale (run 170). The JSON also
# records tconv_sources; check it with `tconv digest --commit <sha>`.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
PRECISION=${PRECISION:-bf16}
t0=$SECONDS
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
  python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
  echo "build $((SECONDS-t0)) s"
fi
python3 -m tconv digest
mkdir -p /tmp/bench_$PRECISION
prev=$(ls /tmp/bench_$PRECISION/bench_*.json 2>/dev/null | head -1)
[ -z "$prev" ] && [ -n "${RESUME_FROM:-}" ] && cp "$RESUME_FROM" /tmp/bench_$PRECISION/ && prev=/tmp/bench_$PRECISION/$(basename "$RESUME_FROM")
resume=(); [ -n "$prev" ] && resume=(--resume "$prev")
python3 -m tconv bench --suite all --precision $PRECISION --no-compile --runs 20 --warmup 3 \
  --time-budget $((560-SECONDS+t0)) --out /tmp/bench_$PRECISION "${resume[@]}" > $OUT/bench.log 2>&1
echo "bench rc $?"; cp /tmp/bench_$PRECISION/bench_*.json $OUT/; tail -26 $OUT/bench.log | cut -c1-220
echo "done $((SECONDS-t0)) s"
