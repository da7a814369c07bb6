#!/usr/bin/env bash
# Run 199 (session 30): the shifted-x kernel without the wide-taps path, whose run-time branch made ptxas serialize
# every wgmma of kernel W 4-5 (C7511). Shifted-x tests; memcheck, racecheck and synccheck of the shifted-x kernels;
# the breakdown of L1-68 (shifted_x<5> was 9.12 ms in runs 193-194 on H200s; predicted ~7.5-8.0); tconv bench of
# L1-68 and L1-71 (TF32; L1-71's kernel W 3 had no serialization, so it should not move).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv digest
timeout 90 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "shifted_x" \
  > $OUT/pytest_shifted_x.log 2>&1
echo "shifted-x tests rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest_shifted_x.log | tail -4
for tool in memcheck racecheck synccheck; do
  timeout 45 compute-sanitizer --tool $tool --kernel-name kns=shifted_x python3 tests/sanitize_small.py \
    >> $OUT/sanitize_shifted_x.log 2>&1
  echo "$tool (shifted-x kernels) rc $?"; tail -1 $OUT/sanitize_shifted_x.log
done
(cd scripts && timeout 50 python3 kernel_breakdown.py l1_68_convt3d_square_input_asym_kernel --precision tf32 --iters 3) \
  > $OUT/breakdown_l1_68.log 2>&1
echo "breakdown rc $?"; grep -E "^==|ms  x" $OUT/breakdown_l1_68.log | cut -c1-160 | head -6
echo "t $((SECONDS-t0)) s"
mkdir -p /tmp/bench
timeout $((590 - (SECONDS - t0))) python3 -m tconv bench l1_68_convt3d_square_input_asym_kernel \
  l1_71_convt2d_asym_input_square_kernel --precision tf32 --no-compile --runs 20 --warmup 3 --out /tmp/bench \
  --time-budget $((500 - (SECONDS - t0))) > $OUT/bench.log 2>&1
echo "bench rc $?"; cp /tmp/bench/bench_*.json $OUT/ 2>/dev/null; grep -E "^\[" $OUT/bench.log | cut -c1-220
echo "done $((SECONDS-t0)) s"
