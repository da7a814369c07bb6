#!/usr/bin/env bash
# Run 311: session 47's three patches (fp32 transpose store order, 64-position fp32 warp tiles, split sum in 8
# lanes) against 702e70b (ab_old, carried): both trees built in parallel, A/B of L1-71 and fam08 in TF32 and bf16
# ("auto" and forced unit_stride_mma), then the unit_stride_mma and split grad_weight GPU tests on the new tree.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
start=$(date +%s)
ROUNDS=1 PRECISIONS="tf32 bf16" bash scripts/device_ab.sh ab_old l1_71_convt2d_asym_input_square_kernel \
  fam08_convt1d_k5_d3_131072 --algorithm auto unit_stride_mma > "$OUT/ab.log" 2>&1
grep -v "^$" "$OUT/ab.log" | tail -40
echo "ab took $(( $(date +%s) - start )) s"
export TCONV_BUILD_DIR=/tmp/tconv_build
left=$(( 570 - ($(date +%s) - start) )); echo "pytest gets $left s"
timeout $left python3 -m pytest -q -rfE -x -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "unit_stride_mma or grad_weight_rows or grad_weight_shifted_x" > "$OUT/pytest.log" 2>&1
tail -6 "$OUT/pytest.log"
echo "total $(( $(date +%s) - start )) s"
