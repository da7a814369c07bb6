#!/usr/bin/env bash
# Run 244: c01ade4's defaults on a GPU (16-bit shifted-x unit of 48 where it adds no positions and grad_output is
# mapped; 32-bit word fragments): the grad_weight GPU tests, memcheck of the shifted-x kernels, then the bf16 suite
# with the time left (resume it on the warm machine: RESUME=<json> bash run244.sh).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/suite
if [ -z "${RESUME:-}" ]; then
  timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "shifted_x or grad_weight" \
    > $OUT/pytest.log 2>&1
  echo "grad_weight tests rc $? ($((SECONDS-t0)) s)"; tail -2 $OUT/pytest.log; grep -E "^FAILED|^ERROR" $OUT/pytest.log | head -20
  timeout 120 compute-sanitizer --tool memcheck --kernel-name kns=shifted_x python3 tests/sanitize_small.py \
    > $OUT/memcheck.log 2>&1
  echo "memcheck rc $?"; tail -2 $OUT/memcheck.log
  left=$(( 560 - (SECONDS - t0) ))
  timeout $((590 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision bf16 --no-compile --runs 20 --warmup 3 \
    --time-budget $left --out /tmp/suite > /tmp/suite/bench.log 2>&1
else
  left=$(( 560 - (SECONDS - t0) ))
  cp $RESUME /tmp/suite/ 2>/dev/null
  timeout $((590 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision bf16 --no-compile --runs 20 --warmup 3 \
    --time-budget $left --out /tmp/suite --resume /tmp/suite/$(basename $RESUME) > /tmp/suite/bench.log 2>&1
fi
echo "bench rc $? (3: rows left)"; cp /tmp/suite/bench_*.json /tmp/suite/bench.log $OUT/
grep -E "^\[" /tmp/suite/bench.log | cut -c1-220 | tail -25
echo "done $((SECONDS-t0)) s"
