#!/usr/bin/env bash
# Run 228 (session 34): the final kernels of the session (widened shifted-x grad_weight, copied 16-bit grad_output rows,
# one-row kernels refused): the whole GPU test directory, memcheck and racecheck of the shifted-x kernels on
# tests/sanitize_small.py (its new cases: W tap groups, two C_in tiles, 16 output channels, copied rows), then
# `tconv bench` rows of the bf16 shapes whose rows are now copied (L1-71, fam05, fam01) and fam04 (refused again: run
# 227's 9.48 ms expected), and TF32 fam11 (cut in run 226).
# Usage: COMMIT=<sha> bash run228.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 260 python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
echo "pytest rc $? ($((SECONDS-t0)) s)"; grep -E "passed|failed|Error" $OUT/pytest.log | tail -12
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --kernel-name regex:shifted_x python3 tests/sanitize_small.py \
    > $OUT/sanitize_$tool.log 2>&1
  echo "$tool (shifted_x kernels) rc $? ($((SECONDS-t0)) s)"; grep -E "SUMMARY" $OUT/sanitize_$tool.log | tail -1
done
mkdir -p /tmp/b
for spec in "bf16 l1_71_convt2d_asym_input_square_kernel fam05_convt2d_k3x7_512x512 fam01_convt2d_k3_1024x1024 fam04_convt1d_k3_65536" \
            "tf32 fam11_convt2d_k3x7_p1x3_512x1024"; do
  set -- $spec; prec=$1; shift
  left=$((590 - (SECONDS - t0))); [ $left -lt 60 ] && break
  timeout $left python3 -m tconv bench "$@" --precision $prec --no-compile --runs 20 --warmup 3 --out /tmp/b \
    > $OUT/bench_$prec.log 2>&1
  echo "bench $prec rc $?"; grep -E "^\[" $OUT/bench_$prec.log | cut -c1-220
done
cp /tmp/b/bench_*.json $OUT/ 2>/dev/null
echo "done $((SECONDS-t0)) s"
