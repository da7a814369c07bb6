#!/usr/bin/env bash
# Run 329: the host's time per fwd+bwd on a GPU at HEAD (018f13d: plain eager calls skip torch.library's dispatch,
# unmeasured on a GPU so far), with the time inside each C++ entry point and a cProfile, for DCGAN, U-Net and L1-72.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
(cd scripts && timeout 150 python3 host_overhead.py real_dcgan_up --precision tf32 --iters 20 --cprofile 40 \
  --entry-points 2>&1 | grep -v Warning | tee "$OUT/host_overhead.log")
(cd scripts && timeout 120 python3 host_overhead.py real_unet3d_up l1_72_convt3d_asym_kernel_strided_padded_grouped \
  --precision tf32 --iters 20 --entry-points 2>&1 | grep -v Warning | tee -a "$OUT/host_overhead.log")
echo "total $(( $(date +%s) - start )) s"
