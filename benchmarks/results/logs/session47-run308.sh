#!/usr/bin/env bash
# Run 308 (its first call lost: ab_old was not carried; the second as below, without the source page): same-machine A/B of the unit-stride forward, session 46's code (b25cb7f, in ab_old) against this tree
# (16-channel fp32 stages at two blocks per SM, a tile's place once per tile), TF32 and bf16, auto and forced; then
# the unit_stride_mma GPU tests on this tree and the new fp32 forward's source page (instruction counts).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
ROUNDS=1 PRECISIONS="tf32 bf16" bash scripts/device_ab.sh ab_old l1_71_convt2d_asym_input_square_kernel \
  fam08_convt1d_k5_d3_131072 --algorithm auto unit_stride_mma 2>&1 | tee "$OUT/ab.log" | grep -v "^$"
export TCONV_BUILD_DIR=/tmp/tconv_build
timeout 200 python3 -m pytest -q -rfE -x -p no:cacheprovider tests/test_conv_transpose_gpu.py -k unit_stride_mma 2>&1 | tail -4
