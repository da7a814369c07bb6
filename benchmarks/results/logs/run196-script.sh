#!/usr/bin/env bash
# Run 196: tconv bench at the tap-pairs default (cd6818e) on the shapes whose unit-stride tiles have 32 channels
# (L1-68's grad_input; fam02, fam07, fam11 forward per run 195's sweep), TF32 and exact fp32.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv digest
mkdir -p /tmp/bench
python3 -m tconv bench l1_68_convt3d_square_input_asym_kernel fam02_convt3d_k3x5x7_16x32x64 fam07_convt3d_k3_96x96x96 \
  fam11_convt2d_k3x7_p1x3_512x1024 --precision tf32 fp32 --no-compile --runs 20 --warmup 3 --out /tmp/bench \
  --time-budget $((520 - (SECONDS - t0))) > $OUT/bench.log 2>&1
echo "bench rc $?"; cp /tmp/bench/bench_*.json $OUT/ 2>/dev/null; grep -E "^\[" $OUT/bench.log | cut -c1-220
echo "done $((SECONDS-t0)) s"
