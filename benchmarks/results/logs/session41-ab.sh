#!/usr/bin/env bash
# Session 41, one H100 call: the lines form's balanced task deal and the TF32 lines rounded once per tile (both kernels)
# against the old forms, in one build (development switches TCONV_GROUPED_MMA_LINES_BALANCED / _PRE_ROUNDED, read
# once per process, so one process per setting, alternating). Tests first.
# Usage: OUT=dir bash benchmarks/results/logs/session41-ab.sh
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"; mkdir -p "$OUT"
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1 OMP_NUM_THREADS=16
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv | tee "$OUT/gpu.txt"
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -2
MAX_JOBS=16 python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
python3 -m tconv info > "$OUT/info.txt" 2>&1
echo "built $((SECONDS-t0)) s"
timeout 240 python3 -m pytest -q -rfE --maxfail=6 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "balanced_bit_identical or grouped_mma_lines or grouped_mma_grad_weight or auto_picks_grouped or grid_grouped and auto or random_sweep_grouped and auto" \
  > "$OUT/pytest.log" 2>&1
echo "tests rc $? ($((SECONDS-t0)) s)"; tail -1 "$OUT/pytest.log"; grep -E "^FAILED|^ERROR" "$OUT/pytest.log" | head
P="l1_72_convt3d_asym_kernel_strided_padded_grouped l1_73_convt3d_strided_padded_grouped fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256"
cd scripts
for round in 1 2; do
  for cfg in "0 0" "1 1" "1 0" "0 1"; do set -- $cfg
    [ $round = 2 ] && [ "$cfg" != "0 0" ] && [ "$cfg" != "1 1" ] && continue
    TCONV_GROUPED_MMA_LINES_BALANCED=$1 TCONV_GROUPED_MMA_PRE_ROUNDED=$2 timeout 90 python3 quick_timing.py $P \
      --precision tf32 bf16 --runs 20 --warmup 3 2>&1 | sed "s/^/r$round BAL=$1 PRE=$2 /" >> "$OUT/ab_fwd.log"
  done
  for pre in 0 1; do
    TCONV_GROUPED_MMA_PRE_ROUNDED=$pre timeout 60 python3 grad_weight_timing.py $P --precision tf32 \
      --algorithm grouped_mma --runs 20 2>&1 | sed "s/^/r$round PRE=$pre /" >> "$OUT/ab_gw.log"
  done
done
cd ..
grep -E "fwd|ms" "$OUT/ab_fwd.log" | sed 's/ \+/ /g' | cut -c1-200 | head -60
grep -E "grad_weight|ms" "$OUT/ab_gw.log" | sed 's/ \+/ /g' | cut -c1-200 | head -30
echo "done $((SECONDS-t0)) s"
