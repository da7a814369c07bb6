#!/usr/bin/env bash
# Run 140 (session 20): (1) A/B of the grad_input strip kernel's guarded float4 loads: branches (A, TCONV_AB_OLD=1,
# as landed) vs one predicated ld.global.nc.v4 each (P), the change that took the forward strip kernel from 2.85 to
# 2.15 ms (run 139). Prediction: P a few % faster, less than the forward's gain (128 K stages a block, not 32, and 6
# loads a stage, not 32). (2) The whole GPU test directory at 810ee2f's kernels + P. (3) memcheck/racecheck.
# (4) `tconv bench real_hifigan_up` (TF32) on the faster variant. At most 8 files under $OUT.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
for v in P A P A; do
  if [ $v = A ]; then export TCONV_AB_OLD=1; else unset TCONV_AB_OLD; fi
  echo "== $v"; python3 scripts/kernel_breakdown.py real_hifigan_up --precision tf32 --iters 5 2>&1 | grep -E "strip_grad_input|ms of kernels"
done 2>&1 | tee $OUT/ab.txt
unset TCONV_AB_OLD
p_ms=$(awk '/== P/{f=1;next} /== A/{f=0} f && /strip_grad_input/{print $1; exit}' $OUT/ab.txt)
a_ms=$(awk '/== A/{f=1;next} /== P/{f=0} f && /strip_grad_input/{print $1; exit}' $OUT/ab.txt)
echo "P $p_ms A $a_ms"
if awk "BEGIN{exit !($p_ms >= $a_ms)}"; then export TCONV_AB_OLD=1; echo "A kept for the rest"; fi
timeout 270 python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1; tail -12 $OUT/pytest.log | grep -E "passed|failed|Error" | tail -6
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 90 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -2 $OUT/racecheck.log
TCONV_COMMIT=${VARIANT_SHA:-unknown} timeout $((585-SECONDS)) python3 -m tconv bench real_hifigan_up --precision tf32 \
  --no-compile --runs 20 --warmup 3 --out $OUT/b > $OUT/bench.log 2>&1; tail -4 $OUT/bench.log
echo "done $((SECONDS-t0)) s"
