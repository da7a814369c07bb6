#!/usr/bin/env bash
# Run 114 (session 17): source profiles of the forward gather GEMM with B bulk-copied (specialized: L2-61,
# fam06; plain wgmma 64-column: L1-68), to see what the producer and MMA warps wait on now.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1
t0=$SECONDS
python3 -m tconv build > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
OUT=/tmp/src CASES="l2_61_tf32:l2_61_convt3d_relu_groupnorm:tf32 fam06_tf32:fam06_convt2d_k3x5_128x256:tf32
l1_68_tf32:l1_68_convt3d_square_input_asym_kernel:tf32" bash scripts/ncu_source.sh
for f in /tmp/src/src_*.csv; do gzip -c "$f" > "$OUT/run114-$(basename $f).gz"; done
(cd scripts && python3 quick_timing.py l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256 fam04_convt1d_k3_65536 --precision tf32 --runs 10 --warmup 2)
echo "done $((SECONDS-t0)) s"
