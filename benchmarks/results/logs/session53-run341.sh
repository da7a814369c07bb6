#!/usr/bin/env bash
# Run 341: session 52's last code on a GPU (copy budget, the window's auto rule behind its switch, whole-line narrow
# blocks): TMA gather tests, memcheck; whole-line A/B under igemm_tma_window (alternating processes); "auto" in three
# settings (default / TCONV_TMA_COPY_BUDGET=10 / that plus TCONV_TMA_WINDOW_AUTO=1); L1-68's per-pass autotune rows.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 150 python3 -m pytest -q -rfE --maxfail=10 -p no:cacheprovider tests/test_gather_tma_gpu.py \
  2>&1 | tee "$OUT/pytest.log" | tail -3
timeout 60 compute-sanitizer --tool memcheck --print-limit 20 python3 scripts/tma_gather_sanitize.py 2>&1 \
  | tail -3 | tee "$OUT/memcheck.log"
echo "tests after $(( $(date +%s) - start )) s"
cd scripts
W="l1_68_convt3d_square_input_asym_kernel fam03_convt3d_k3_64x64x64 l2_61_convt3d_relu_groupnorm"
for round in 1 2; do
  for wl in 1 0; do
    TCONV_TMA_WINDOW_WHOLE_LINES=$wl timeout 60 python3 quick_timing.py $W --precision tf32 \
      --algorithm igemm_tma_window --runs 10 --json "$OUT/whole_lines_${wl}_r$round.json" 2>&1 \
      | sed "s/^/wl=$wl r$round /" | tee -a "$OUT/whole_lines.log"
  done
done
echo "A/B after $(( $(date +%s) - start )) s"
S="$W real_dcgan_up"
for round in 1 2; do
  timeout 60 python3 quick_timing.py $S --precision tf32 --algorithm auto --runs 10 --json "$OUT/auto_default_r$round.json" \
    2>&1 | sed "s/^/default r$round /" | tee -a "$OUT/settings.log"
  TCONV_TMA_COPY_BUDGET=10 timeout 60 python3 quick_timing.py $S --precision tf32 --algorithm auto --runs 10 \
    --json "$OUT/auto_budget_r$round.json" 2>&1 | sed "s/^/budget10 r$round /" | tee -a "$OUT/settings.log"
  TCONV_TMA_COPY_BUDGET=10 TCONV_TMA_WINDOW_AUTO=1 timeout 60 python3 quick_timing.py $S --precision tf32 \
    --algorithm auto --runs 10 --json "$OUT/auto_budget_window_r$round.json" 2>&1 \
    | sed "s/^/budget10+window r$round /" | tee -a "$OUT/settings.log"
done
echo "settings after $(( $(date +%s) - start )) s"
timeout 120 python3 quick_timing.py l1_68_convt3d_square_input_asym_kernel --precision tf32 --algorithm autotune \
  --runs 5 --json "$OUT/autotune_l1_68.json" 2>&1 | tee "$OUT/autotune_l1_68.log"
echo "total $(( $(date +%s) - start )) s"
rm -f "$OUT/build.log"
