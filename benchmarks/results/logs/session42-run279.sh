#!/usr/bin/env bash
# Session 42, third device call (one H100): the tensor-core grad_weight's grid from the runtime's resident blocks
# (TCONV_GROUPED_MMA_GRAD_WEIGHT_OCCUPANCY=1) against the shared-memory estimate: its switch test (float64 agreement,
# bit-identical reruns, a 240-tile case where the split count changes), then grad_weight alone and fwd+bwd.
# Usage: OUT=dir bash benchmarks/results/logs/session42-run279.sh
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"; mkdir -p "$OUT"
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1 OMP_NUM_THREADS=16
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -2
MAX_JOBS=16 python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built $((SECONDS-t0)) s"
timeout 100 python3 -m pytest -q -rfE --maxfail=4 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "grad_weight_item_switches or grouped_mma_grad_weight_deterministic" > "$OUT/pytest_log.txt" 2>&1
echo "tests rc $? ($((SECONDS-t0)) s)"; tail -1 "$OUT/pytest_log.txt"; grep -E "^FAILED|^ERROR" "$OUT/pytest_log.txt" | head
P="l1_73_convt3d_strided_padded_grouped l1_72_convt3d_asym_kernel_strided_padded_grouped fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256"
cd scripts
for round in 1 2; do
  for occ in 0 1; do
    TCONV_GROUPED_MMA_GRAD_WEIGHT_OCCUPANCY=$occ timeout 60 python3 grad_weight_timing.py $P --precision tf32 bf16 \
      --algorithm grouped_mma --runs 20 --warmup 3 2>&1 | sed "s/^/r$round OCCUPANCY=$occ /" >> "$OUT/ab_grad_weight.log"
  done
done
echo "grad_weight A/B done $((SECONDS-t0)) s"
for occ in 0 1; do
  TCONV_GROUPED_MMA_GRAD_WEIGHT_OCCUPANCY=$occ timeout 60 python3 quick_timing.py $P --precision tf32 bf16 --runs 15 \
    --warmup 3 2>&1 | sed "s/^/OCCUPANCY=$occ /" >> "$OUT/ab_fwdbwd.log"
done
cd ..
sed 's/ \+/ /g' "$OUT/ab_grad_weight.log" | cut -c1-170
sed 's/ \+/ /g' "$OUT/ab_fwdbwd.log" | cut -c1-170
echo "done $((SECONDS-t0)) s"
