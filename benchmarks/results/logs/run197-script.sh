#!/usr/bin/env bash
# Run 197 (session 30): the pack kernel's decode per (k8 step, column block) instead of per element (DCGAN's 2.1M-float
# pack: 63 us of kernels per fwd+bwd in run 193; predicted ~15) and session 29's shifted-x mends (flat_dy_row once
# per row, decode_shifted_x_block, the shifted-x plan's splits once): the whole GPU test directory, memcheck of
# sanitize_small.py, breakdowns of DCGAN and L1-71; then `tconv bench --suite all --precision tf32` with the time
# left, resumed by the next call (RESUME=<the JSON, copied into the repository>).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv digest
if [ -z "${RESUME:-}" ]; then
  timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
  echo "pytest rc $?"; grep -E "passed|failed|Error" $OUT/pytest.log | tail -6
  timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1
  echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
  for stem in real_dcgan_up l1_71_convt2d_asym_input_square_kernel; do
    (cd scripts && timeout 60 python3 kernel_breakdown.py $stem --precision tf32 --iters 3) > $OUT/breakdown_$stem.log 2>&1
    echo "breakdown $stem rc $?"; grep -E "^==|ms  x" $OUT/breakdown_$stem.log | cut -c1-160 | head -8
  done
  resume=""
else
  resume="--resume $PWD/$RESUME"
fi
echo "t $((SECONDS-t0)) s"
mkdir -p /tmp/suite
timeout $((590 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision tf32 --no-compile --runs 20 \
  --warmup 3 --time-budget $((BUDGET - (SECONDS - t0))) $resume --out /tmp/suite > /tmp/suite/bench.log 2>&1
rc=$?; echo "bench rc $rc (3: rows left)"
if [ -n "${RESUME:-}" ]; then cp $PWD/$RESUME $OUT/; cp ${RESUME%.json}.png $OUT/ 2>/dev/null; else cp /tmp/suite/bench_*.json $OUT/; fi
cp /tmp/suite/bench.log $OUT/bench_$(date +%H%M%S).log
grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -40
echo "done $((SECONDS-t0)) s"
