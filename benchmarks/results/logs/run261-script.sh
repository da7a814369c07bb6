#!/usr/bin/env bash
# Run 261: session 37's x_position_pairs patch ported onto the wide rows (16-bit x loaded as 32-bit words of two
# adjacent positions; the 128-channel wide-rows tiles take it too): the unit-stride/strip tests with
# TCONV_UNIT_STRIDE_X_PAIRS 1 and 0, the fused GPU tests, a same-build A/B of the switch on fam06, fam04, L1-68 and
# L2-61 in bf16, then the exact fp32 suite with the time left (resume on the warm machine: RESUME=<json>).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
MAX_JOBS=16 python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/suite
if [ -z "${RESUME:-}" ]; then
  for pairs in 1 0; do
    TCONV_UNIT_STRIDE_X_PAIRS=$pairs timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider \
      tests/test_conv_transpose_gpu.py -k "unit_stride or strip_grad_input or strip_forward" > $OUT/pytest_pairs$pairs.log 2>&1
    echo "unit-stride tests X_PAIRS=$pairs rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_pairs$pairs.log
    grep -E "^FAILED|^ERROR" $OUT/pytest_pairs$pairs.log | head
  done
  timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_fused_gpu.py > $OUT/pytest_fused.log 2>&1
  echo "fused tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_fused.log; grep -E "^FAILED|^ERROR" $OUT/pytest_fused.log | head
  OUT=$OUT/ab SWITCH=TCONV_UNIT_STRIDE_X_PAIRS VALUES="1 0" ROUNDS=2 PRECISIONS="bf16" timeout 150 \
    bash scripts/device_switch_ab.sh fam06_convt2d_k3x5_128x256 fam04_convt1d_k3_65536 \
    l1_68_convt3d_square_input_asym_kernel l2_61_convt3d_relu_groupnorm > $OUT/switch_x_pairs.log 2>&1
  echo "A/B x pairs rc $? ($((SECONDS-t0)) s)"; grep fwd $OUT/switch_x_pairs.log | sed 's/ \+/ /g' | cut -c1-150
fi
left=$(( ${BUDGET:-560} - (SECONDS - t0) ))
[ $left -gt 60 ] && timeout $(( ${BUDGET:-560} + 30 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision fp32 \
  --no-compile --runs 20 --warmup 3 --time-budget $left --out /tmp/suite ${RESUME:+--resume $RESUME} > /tmp/suite/bench.log 2>&1
echo "bench rc $? (3: rows left)"; cp /tmp/suite/bench_*.json /tmp/suite/bench.log $OUT/ 2>/dev/null
grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -25
echo "done $((SECONDS-t0)) s"
