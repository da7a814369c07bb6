#!/usr/bin/env bash
# Run 95 (session 15, not committed): build, switch A/Bs of the window hint and the ordering fallback, whole GPU
# test directory, memcheck.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
pip install -q --no-deps --no-build-isolation -e . > "$OUT/pip.log" 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$OUT/gpu.txt"
t0=$SECONDS
python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "build $((SECONDS-t0)) s"
OUT="$OUT/sw" SWITCH=TCONV_PHASE_SPLIT_EDGES VALUES="1 0 nowindow" ROUNDS=2 PRECISIONS="tf32" \
  timeout 120 bash scripts/device_switch_ab.sh real_hifigan_up 2>&1 | tee "$OUT/switch_edges.log" | grep -v Warn
OUT="$OUT/sw" SWITCH=TCONV_GRAD_WEIGHT_ORDERED VALUES="1 0" ROUNDS=1 PRECISIONS="tf32 fp32" \
  timeout 80 bash scripts/device_switch_ab.sh real_dcgan_up 2>&1 | tee "$OUT/switch_ordered.log" | grep -v Warn
echo "switches $((SECONDS-t0)) s"
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests > "$OUT/pytest.log" 2>&1; tail -4 "$OUT/pytest.log"
echo "tests $((SECONDS-t0)) s"
timeout $((575-SECONDS)) compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > "$OUT/memcheck.log" 2>&1
tail -3 "$OUT/memcheck.log"
echo "done $((SECONDS-t0)) s"
