#!/usr/bin/env bash
# Session 42, second device call (one H100): the lines form's grid from the runtime's occupancy
# (TCONV_GROUPED_MMA_LINES_OCCUPANCY=1) against the shared-memory estimate, after its bit-identity test; then every
# forced algorithm (and autotune) on the bf16 rows below eager or near it (DCGAN, L1-71, fam07, fam01) and DCGAN TF32,
# to see whether "auto" leaves a faster existing kernel unused.
# Usage: OUT=dir bash benchmarks/results/logs/session42-run278.sh
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"; mkdir -p "$OUT"
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1 OMP_NUM_THREADS=16
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$OUT/gpu.txt"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -2
MAX_JOBS=16 python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -rfE --maxfail=6 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "switches_bit_identical or auto_picks_grouped" > "$OUT/pytest.log" 2>&1
echo "tests rc $? ($((SECONDS-t0)) s)"; tail -1 "$OUT/pytest.log"; grep -E "^FAILED|^ERROR" "$OUT/pytest.log" | head
P="l1_72_convt3d_asym_kernel_strided_padded_grouped l1_73_convt3d_strided_padded_grouped fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256"
cd scripts
for round in 1 2; do
  for occ in 0 1; do
    TCONV_GROUPED_MMA_LINES_OCCUPANCY=$occ timeout 80 python3 quick_timing.py $P --precision tf32 bf16 --runs 20 \
      --warmup 3 2>&1 | sed "s/^/r$round OCCUPANCY=$occ /" >> "$OUT/ab_occupancy.log"
  done
done
echo "occupancy A/B done $((SECONDS-t0)) s"
A="auto autotune igemm igemm_mma igemm_fold igemm_nofold igemm_window igemm_nowindow igemm_strip"
timeout 150 python3 quick_timing.py real_dcgan_up l1_71_convt2d_asym_input_square_kernel --precision bf16 \
  --algorithm $A --runs 15 --warmup 3 --json "$OUT/algorithms_bf16.json" > "$OUT/algorithms.log" 2>&1
echo "algorithms 1 rc $? $((SECONDS-t0)) s"
timeout 120 python3 quick_timing.py real_dcgan_up --precision tf32 --algorithm $A --runs 15 --warmup 3 \
  --json "$OUT/algorithms_dcgan_tf32.json" >> "$OUT/algorithms.log" 2>&1
echo "algorithms 2 rc $? $((SECONDS-t0)) s"
timeout 150 python3 quick_timing.py fam07_convt3d_k3_96x96x96 fam01_convt2d_k3_1024x1024 --precision bf16 \
  --algorithm $A --runs 10 --warmup 2 --json "$OUT/algorithms_fam_bf16.json" >> "$OUT/algorithms.log" 2>&1
echo "algorithms 3 rc $? $((SECONDS-t0)) s"
cd ..
sed 's/ \+/ /g' "$OUT/ab_occupancy.log" | cut -c1-160
sed 's/ \+/ /g' "$OUT/algorithms.log" | cut -c1-200
echo "done $((SECONDS-t0)) s"
