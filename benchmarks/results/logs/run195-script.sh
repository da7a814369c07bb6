#!/usr/bin/env bash
# Run 195: the tap-pairs form as the default (run 194's A/B: L1-68 grad_input 8.81 -> 7.26 ms). The whole GPU test
# directory at the new default; the unit-stride sweep with the switch 0 and 1 on the 32-channel shapes (is L1-71's
# forward/grad_input now worth the unit-stride form over the gathers?).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv digest
timeout 230 python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
echo "pytest rc $?"; grep -E "passed|failed|Error" $OUT/pytest.log | tail -6
echo "t $((SECONDS-t0)) s"
for pairs in 0 1; do
  TCONV_UNIT_STRIDE_TAP_PAIRS=$pairs timeout 100 python3 scripts/unit_stride_sweep.py --runs 10 \
    --only l1_68 l1_71 fam02 --json $OUT/unit_stride_sweep_pairs$pairs.json > $OUT/unit_stride_sweep_pairs$pairs.log 2>&1
  echo "sweep, tap pairs $pairs: rc $?"; tail -12 $OUT/unit_stride_sweep_pairs$pairs.log | cut -c1-200
done
echo "done $((SECONDS-t0)) s"
