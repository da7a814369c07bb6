#!/usr/bin/env bash
# Run 262 (the session's last device time): run 261's x pairs with the tap-pairs test's kernel-name pattern fixed
# (the tenth template argument) and a test of where x pairs are planned; the unit-stride tests, then bf16 bench rows
# of the shapes x pairs reach, in the time left.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
MAX_JOBS=16 python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 60 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "unit_stride or strip_forward" > $OUT/pytest.log 2>&1
echo "unit-stride tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest.log; grep -E "^FAILED|^ERROR" $OUT/pytest.log | head
mkdir -p /tmp/b; left=$(( ${BUDGET:-420} - (SECONDS - t0) ))
timeout $((left + 20)) python3 -m tconv bench l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256 fam04_convt1d_k3_65536 \
  l1_68_convt3d_square_input_asym_kernel fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512 --precision bf16 \
  --no-compile --runs 20 --warmup 3 --time-budget $left --out /tmp/b > /tmp/b/bench.log 2>&1
echo "bench rc $?"; cp /tmp/b/bench_*.json /tmp/b/bench.log $OUT/ 2>/dev/null; grep -E "^\[" /tmp/b/bench.log | cut -c1-200
echo "done $((SECONDS-t0)) s"
