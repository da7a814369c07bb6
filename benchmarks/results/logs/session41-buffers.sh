#!/usr/bin/env bash
# Session 41, last call (one H100): the lines form with two staged-line buffers (TCONV_GROUPED_MMA_LINES_BUFFERS=2, the
# next tile copied during this one) against one, in one build, after its tests: the switch bit-identity tests (BUFFERS=2
# against the default, forward, grad_input and grad_weight bit for bit) and the rule tests. One round (device time).
# Usage: OUT=dir bash benchmarks/results/logs/session41-buffers.sh
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"; mkdir -p "$OUT"
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1 OMP_NUM_THREADS=16
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv | tee "$OUT/gpu.txt"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -2
MAX_JOBS=16 python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built $((SECONDS-t0)) s"
timeout 120 python3 -m pytest -q -rfE --maxfail=6 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "switches_bit_identical or auto_picks_grouped or grouped_mma_lines_kernel_runs" > "$OUT/pytest_default.log" 2>&1
echo "default tests rc $? ($((SECONDS-t0)) s)"; tail -1 "$OUT/pytest_default.log"; grep -E "^FAILED|^ERROR" "$OUT/pytest_default.log" | head
P="l1_72_convt3d_asym_kernel_strided_padded_grouped l1_73_convt3d_strided_padded_grouped fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256"
cd scripts
for round in 1; do
  for buffers in 1 2; do
    TCONV_GROUPED_MMA_LINES_BUFFERS=$buffers timeout 80 python3 quick_timing.py $P --precision tf32 bf16 --runs 20 \
      --warmup 3 2>&1 | sed "s/^/r$round BUFFERS=$buffers /" >> "$OUT/ab_buffers.log"
  done
done
for buffers in 1 2; do
  TCONV_GROUPED_MMA_LINES_BUFFERS=$buffers timeout 40 python3 quick_timing.py l1_72_convt3d_asym_kernel_strided_padded_grouped \
    --precision fp32 --runs 20 --warmup 3 2>&1 | sed "s/^/BUFFERS=$buffers /" >> "$OUT/ab_buffers.log"
done
cd ..
sed 's/ \+/ /g' "$OUT/ab_buffers.log" | cut -c1-200
echo "done $((SECONDS-t0)) s"
