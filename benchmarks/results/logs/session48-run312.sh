#!/usr/bin/env bash
# Run 312: the whole GPU test directory (last run whole at run 269) on this tree: session 47's three patches, TF32
# folded tiles under "auto", the shifted-x test's allowance for the 16-bit unit-stride grad_weight.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build OMP_NUM_THREADS=16
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
left=$(( 585 - ($(date +%s) - start) ))
timeout $left python3 -m pytest -q -rfE -p no:cacheprovider --maxfail=40 tests > "$OUT/pytest.log" 2>&1
echo "pytest rc $? after $(( $(date +%s) - start )) s"
tail -1 "$OUT/pytest.log"; grep -E "^(FAILED|ERROR)" "$OUT/pytest.log" | head -40
