#!/usr/bin/env bash
# Run 327: is DCGAN's TF32 fwd+bwd host-bound now? (runs 325-326: its kernels sum to 0.986 ms per fwd+bwd, quick timings
# 1.006 ms, but `tconv bench` 1.144-1.345 ms with a wide spread.) Host ms per fwd+bwd against GPU ms, for tconv and the
# original model, and a cProfile of tconv's host side; then the same for L2-61 and U-Net as controls.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
(cd scripts && timeout 120 python3 host_overhead.py real_dcgan_up --precision tf32 --iters 20 --cprofile 30 2>&1 \
  | grep -v Warning | tee "$OUT/host_overhead.log")
(cd scripts && timeout 60 python3 host_overhead.py real_unet3d_up l2_61_convt3d_relu_groupnorm --precision tf32 \
  --iters 20 2>&1 | grep -v Warning | tee -a "$OUT/host_overhead.log")
echo "total $(( $(date +%s) - start )) s"
