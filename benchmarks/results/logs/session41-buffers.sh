#!/usr/bin/env bash
# Prepared in session 41 for the next session's first call (one H100), after
#   git apply benchmarks/results/logs/session41-lines_double_buffer.patch benchmarks/results/logs/session41-lines_three_blocks.patch
# The lines form with two staged-line buffers (TCONV_GROUPED_MMA_LINES_BUFFERS=2, the next tile copied during this one)
# and with three blocks per SM for the 8 x 8 kernels (TCONV_GROUPED_MMA_LINES_BLOCKS=3) against the default, in one
# build, after their tests: the switch bit-identity tests (forward, grad_input and grad_weight bit for bit against the
# default) and the rule tests. Run 276 ran the BUFFERS-only version of this script and was cut off after its build.
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
# (buffers, blocks per SM): the default, double-buffered staging, three blocks (8 x 8 kernels), both
for round in 1 2; do
  for cfg in "1 2" "2 2" "1 3" "2 3"; do set -- $cfg
    TCONV_GROUPED_MMA_LINES_BUFFERS=$1 TCONV_GROUPED_MMA_LINES_BLOCKS=$2 timeout 80 python3 quick_timing.py $P \
      --precision tf32 bf16 --runs 20 --warmup 3 2>&1 | sed "s/^/r$round BUFFERS=$1 BLOCKS=$2 /" >> "$OUT/ab_buffers.log"
  done
done
cd ..
sed 's/ \+/ /g' "$OUT/ab_buffers.log" | cut -c1-200
echo "done $((SECONDS-t0)) s"
