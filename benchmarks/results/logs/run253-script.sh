#!/usr/bin/env bash
# Run 253: run 252's stores with the weights-as-A tiles' one-row-per-thread store kept where pairs are off, and the
# strip grad_input's pair store through the shared store_value_pair: the unit-stride and strip grad_input GPU tests,
# a same-build A/B of TCONV_UNIT_STRIDE_PAIR_STORES 1/0 (now: row pairs against run 251's weights-as-A store) on L1-68
# and fam01, then the bf16 suite with the time left (resume on the warm machine: RESUME=<json>).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/suite
if [ -z "${RESUME:-}" ]; then
  timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py \
    -k "unit_stride or strip_grad_input or strip_forward" > $OUT/pytest.log 2>&1
  echo "GPU tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest.log; grep -E "^FAILED|^ERROR" $OUT/pytest.log | head -20
  OUT=$OUT/ab SWITCH=TCONV_UNIT_STRIDE_PAIR_STORES VALUES="1 0" ROUNDS=1 PRECISIONS="bf16 tf32" timeout 100 \
    bash scripts/device_switch_ab.sh l1_68_convt3d_square_input_asym_kernel fam01_convt2d_k3_1024x1024 \
    > $OUT/switch_pairs.log 2>&1
  echo "A/B pairs rc $? ($((SECONDS-t0)) s)"; grep fwd $OUT/switch_pairs.log | sed 's/ \+/ /g' | cut -c1-150
  left=$(( 560 - (SECONDS - t0) ))
  timeout $((590 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision bf16 --no-compile \
    --runs 20 --warmup 3 --time-budget $left --out /tmp/suite > /tmp/suite/bench.log 2>&1
else
  left=$(( 560 - (SECONDS - t0) ))
  timeout $((590 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision ${PRECISION:-bf16} --no-compile \
    --runs 20 --warmup 3 --time-budget $left --out /tmp/suite --resume $RESUME > /tmp/suite/bench.log 2>&1
fi
echo "bench rc $? (3: rows left)"; cp /tmp/suite/bench_*.json /tmp/suite/bench.log $OUT/ 2>/dev/null
grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -25
echo "done $((SECONDS-t0)) s"
