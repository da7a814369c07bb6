#!/usr/bin/env bash
# Run 258: session 37's defer_16bit_pack patch (16-bit x packed at the store, two iterations after its load) against
# the committed tree on one machine: the committed tree through the editable install, a patched copy beside it (its own
# TCONV_BUILD_DIR, imported through PYTHONPATH), both built at once. The copy's unit-stride/strip tests, then
# quick_timing in alternating processes, two rounds, on fam06, fam04, L1-68 and L2-61 in bf16. Then the TF32 suite on
# the committed tree with the time left (resume on the warm machine: RESUME=<json>).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
mkdir -p /tmp/suite
if [ -z "${RESUME:-}" ]; then
  B=/tmp/tree_b; rm -rf $B; mkdir -p $B; tar -cf - --exclude=./.git . | tar -xf - -C $B
  (cd $B && git apply benchmarks/results/logs/session37-defer_16bit_pack.patch) || { echo "patch does not apply"; exit 1; }
  TCONV_BUILD_DIR=/tmp/tconv_build MAX_JOBS=8 python3 -c "import tconv; tconv._build.load()" > /tmp/build_a.log 2>&1 &
  (cd $B && PYTHONPATH=$B TCONV_BUILD_DIR=/tmp/build_b MAX_JOBS=8 python3 -c "import tconv; tconv._build.load()") \
    > /tmp/build_b.log 2>&1 &
  wait
  grep -E " error|Error" /tmp/build_a.log /tmp/build_b.log | head -20
  echo "builds $((SECONDS-t0)) s"; nvidia-smi --query-gpu=name --format=csv,noheader
  (cd $B && PYTHONPATH=$B TCONV_BUILD_DIR=/tmp/build_b timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider \
    tests/test_conv_transpose_gpu.py -k "unit_stride or strip_forward or strip_grad_input") > $OUT/pytest_patched.log 2>&1
  echo "patched GPU tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_patched.log; grep -E "^FAILED|^ERROR" $OUT/pytest_patched.log | head
  SHAPES="fam06_convt2d_k3x5_128x256 fam04_convt1d_k3_65536 l1_68_convt3d_square_input_asym_kernel l2_61_convt3d_relu_groupnorm"
  for round in 1 2; do
    (cd scripts && TCONV_BUILD_DIR=/tmp/tconv_build python3 quick_timing.py $SHAPES --precision bf16 \
      --runs 10 --warmup 2 | sed "s/^/committed /")
    (cd $B/scripts && PYTHONPATH=$B TCONV_BUILD_DIR=/tmp/build_b python3 quick_timing.py $SHAPES \
      --precision bf16 --runs 10 --warmup 2 | sed "s/^/patched   /")
  done 2>&1 | grep -E "fwd" | sed 's/ \+/ /g' | tee $OUT/patch_ab.log
  echo "A/B done $((SECONDS-t0)) s"
else
  TCONV_BUILD_DIR=/tmp/tconv_build python3 -c "import tconv; tconv._build.load()" > /tmp/build_a.log 2>&1
fi
export TCONV_BUILD_DIR=/tmp/tconv_build
left=$(( 560 - (SECONDS - t0) ))
[ $left -gt 60 ] && timeout $((590 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision tf32 --no-compile \
  --runs 20 --warmup 3 --time-budget $left --out /tmp/suite ${RESUME:+--resume $RESUME} > /tmp/suite/bench.log 2>&1
echo "bench rc $? (3: rows left)"; cp /tmp/suite/bench_*.json /tmp/suite/bench.log $OUT/ 2>/dev/null
grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -25
echo "done $((SECONDS-t0)) s"
