#!/usr/bin/env bash
# Session 41: where the grouped tensor-core kernels' time goes (one H100 call). The lines forward runs L1-72 at 14 % of
# its floor and the grad_weight kernel L1-73 at ~25 %; neither was profiled at 8 warps. Stall breakdowns, occupancy
# and issue-slot use (scripts/ncu_stalls.sh), then the source counters of the two worst (scripts/ncu_source.sh).
# Usage: OUT=dir bash benchmarks/results/logs/session41-profile.sh
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"; mkdir -p "$OUT"
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv | tee "$OUT/gpu.txt"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -2
MAX_JOBS=16 python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built $((SECONDS-t0)) s"
OUT=$OUT KERNEL=grouped_mma_lines CASES="lines_l1_72_tf32:l1_72_convt3d_asym_kernel_strided_padded_grouped:tf32
lines_l1_73_tf32:l1_73_convt3d_strided_padded_grouped:tf32 lines_fam09_bf16:fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256:bf16" \
  bash scripts/ncu_stalls.sh
OUT=$OUT KERNEL=grouped_mma_grad_weight CASES="gw_l1_73_tf32:l1_73_convt3d_strided_padded_grouped:tf32
gw_l1_72_tf32:l1_72_convt3d_asym_kernel_strided_padded_grouped:tf32" bash scripts/ncu_stalls.sh
echo "stalls done $((SECONDS-t0)) s"
OUT=$OUT KERNEL=grouped_mma_lines CASES="lines_l1_72_tf32:l1_72_convt3d_asym_kernel_strided_padded_grouped:tf32" \
  bash scripts/ncu_source.sh
OUT=$OUT KERNEL=grouped_mma_grad_weight CASES="gw_l1_73_tf32:l1_73_convt3d_strided_padded_grouped:tf32" \
  bash scripts/ncu_source.sh
for f in "$OUT"/src_*.csv; do python3 scripts/ncu_source_summary.py "$f" --top 30 > "${f%.csv}.summary.txt"; gzip -f "$f"; done
head -60 "$OUT"/src_*.summary.txt
echo "done $((SECONDS-t0)) s"
