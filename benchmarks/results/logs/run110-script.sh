#!/usr/bin/env bash
# Run 110 (session 17): ncu source pages (per-SASS stall samples) of the TF32 forward gather GEMM:
# the warp-specialized 128-column tile (L2-61 windowed, 128 producers; fam06; DCGAN 256 producers)
# and the 64-column plain wgmma tile (L1-68), to find what the MMA and producer warps wait on.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1
t0=$SECONDS
python3 -m tconv build > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $OUT/gpu.txt
OUT=/tmp/src CASES="l2_61_tf32:l2_61_convt3d_relu_groupnorm:tf32 fam06_tf32:fam06_convt2d_k3x5_128x256:tf32
dcgan_tf32:real_dcgan_up:tf32 l1_68_tf32:l1_68_convt3d_square_input_asym_kernel:tf32" bash scripts/ncu_source.sh
for f in /tmp/src/src_*.csv; do gzip -c "$f" > "$OUT/run110-$(basename $f).gz"; done
echo "done $((SECONDS-t0)) s"
