#!/usr/bin/env bash
# Prepared in session 30 for the next session's first call (~450 s on a fresh machine): the A/B of
# logs/session30-shifted_x_wgmma_in_flight.patch. That patch keeps one unit's wgmmas in flight in the shifted-x
# grad_weight consumers (wgmma_wait<1>; the unit's slot releases follow one unit later, which kStages >= release_lag
# + 2 allows; a static_assert says so). Run 201 put 17 % of shifted_x<5>'s stall samples on the per-unit
# wgmma_wait<0>. It compiles for sm_90a with no C75xx info and the table's registers (128; consumers at 144).
# A switch would need a run-time branch in the kernel (what made ptxas fence its wgmmas, run 199) or a second set of
# instantiations, so the A/B is across two builds on one machine:
#   1. the tree as committed: shifted-x breakdown of L1-68 and quick timings (baseline, same machine);
#   2. the patch applied and rebuilt: the 401 shifted-x tests, racecheck and synccheck of the shifted-x kernels,
#      the same breakdown and timings.
# Predicted: shifted_x<5> 8.40 -> ~7.9-8.1 ms (part of the 17 % hidden; L2 is at 80 %, so not all of it).
# Usage: COMMIT=<sha from the development machine> bash benchmarks/results/logs/session30-next_run.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
L=benchmarks/results/logs
L1_68=l1_68_convt3d_square_input_asym_kernel
build() {
  python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
  python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
  echo "build $((SECONDS-t0)) s"; python3 -m tconv digest
}
measure() {  # tag
  (cd scripts && timeout 50 python3 kernel_breakdown.py $L1_68 --precision tf32 --iters 3) > $OUT/breakdown_$1.log 2>&1
  echo "breakdown ($1) rc $?"; grep -E "^==|ms  x" $OUT/breakdown_$1.log | cut -c1-150 | head -3
  for round in 1 2; do
    timeout 60 python3 scripts/quick_timing.py $L1_68 --precision tf32 --runs 20 --warmup 3 >> $OUT/timing_$1.log 2>&1
  done
  echo "timing ($1)"; tail -4 $OUT/timing_$1.log | cut -c1-160
}
build
measure base
git apply $L/session30-shifted_x_wgmma_in_flight.patch || { echo "the patch did not apply"; exit 1; }
build
timeout 90 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "shifted_x" \
  > $OUT/pytest_shifted_x.log 2>&1
echo "shifted-x tests rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest_shifted_x.log | tail -4
for tool in racecheck synccheck; do
  timeout 45 compute-sanitizer --tool $tool --kernel-name kns=shifted_x python3 tests/sanitize_small.py \
    >> $OUT/sanitize_shifted_x.log 2>&1
  echo "$tool (shifted-x kernels) rc $?"; tail -1 $OUT/sanitize_shifted_x.log
done
measure in_flight
echo "done $((SECONDS-t0)) s"
