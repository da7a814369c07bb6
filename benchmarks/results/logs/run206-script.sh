#!/usr/bin/env bash
# Run 206 (session 31): fp16/bf16 on the unit-stride form with k16 MMAs (twice the channels per stage in the fp32
# stage's bytes) instead of TF32 MMAs on widened values (run 203). Build; the unit-stride tests in tf32/fp16/bf16;
# memcheck and racecheck of the unit-stride kernels (sanitize_small's 16-bit case); then scripts/unit_stride_sweep.py
# in bf16 (forward: the gathers "igemm" against "igemm_strip"; grad_input the same) on the 11 stride-1 shapes, and
# L1-68 in fp16 and tf32 (the fp32 instantiations only moved their template arguments).
# Predicted: bf16 forwards ~1.5-1.9x faster than run 203's TF32-on-widened form (each k16 wgmma twice a k8's work in
# the same shared bytes), so L1-68 6.70 -> ~4 ms, and the 64-channel shapes that lost (L2-61, fam01, fam05, fam06)
# now level or ahead of the gathers.
# Usage: COMMIT=<sha> bash run206.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest
timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "unit_stride" \
  > $OUT/pytest_unit_stride.log 2>&1
echo "unit-stride tests rc $? ($((SECONDS-t0)) s)"; grep -E "passed|failed|Error|assert" $OUT/pytest_unit_stride.log | tail -12
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --kernel-name kns=unit_stride python3 tests/sanitize_small.py \
    >> $OUT/sanitize_unit_stride.log 2>&1
  echo "$tool (unit-stride kernels) rc $?"; tail -1 $OUT/sanitize_unit_stride.log
done
(cd scripts && timeout 240 python3 unit_stride_sweep.py --precision bf16 --runs 10 --json $OUT/sweep_bf16.json) \
  > $OUT/sweep.log 2>&1
echo "sweep bf16 rc $?"; cat $OUT/sweep.log | grep -v Warning | cut -c1-230
(cd scripts && timeout 60 python3 unit_stride_sweep.py --precision fp16 tf32 --only l1_68 --runs 10 \
  --json $OUT/sweep_l1_68.json) >> $OUT/sweep.log 2>&1
echo "sweep l1_68 fp16 tf32 rc $?"; tail -2 $OUT/sweep.log | cut -c1-230
echo "done $((SECONDS-t0)) s"
