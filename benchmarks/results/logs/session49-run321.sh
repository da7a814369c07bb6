#!/usr/bin/env bash
# Run 321: fp32 (TF32) grad_weight on the mma.sync kernel at 64-wide C_in tiles (grad_weight_keeps_wgmma): the
# where-planned test and the packed-taps grid; L2-61 TF32 fwd+bwd with TCONV_GRAD_WEIGHT_TF32_MMA_SYNC=1 / 0 in
# alternating processes (two rounds); the verified `tconv bench` row of L2-61 in TF32.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 150 python3 -m pytest -q -rfE --maxfail=10 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "grad_weight_packed_taps or where_planned" 2>&1 | tee "$OUT/pytest.log" | tail -4
echo "tests after $(( $(date +%s) - start )) s"
for round in 1 2; do
  for rule in 1 0; do
    (cd scripts && TCONV_GRAD_WEIGHT_TF32_MMA_SYNC=$rule timeout 60 python3 quick_timing.py \
      l2_61_convt3d_relu_groupnorm --precision tf32 --runs 20 --json "$OUT/ab_rule${rule}_round${round}.json" 2>&1 \
      | sed "s/^/mma_sync=$rule /" | tee -a "$OUT/ab.log")
  done
done
echo "A/B after $(( $(date +%s) - start )) s"
timeout 200 python3 -m tconv bench l2_61_convt3d_relu_groupnorm --precision tf32 --no-compile --runs 20 --warmup 3 \
  --out "$OUT/bench" 2>&1 | grep -vE "^\s*$" | tail -8
rm -f "$OUT"/bench/*.png
echo "total $(( $(date +%s) - start )) s"
