#!/usr/bin/env bash
# Run 337: the TMA window with swapped operands (weights as A in m64 channel tiles, the window as B, n128 per
# warpgroup): its GPU tests, memcheck, and TF32 timings of the stride-1 rows under "auto" and "igemm_tma_window",
# two rounds for L1-68, L2-61 and fam03 (the forward is the comparison; grad_weight is not the window's).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 150 python3 -m pytest -q -rfE --maxfail=10 -p no:cacheprovider tests/test_gather_tma_gpu.py \
  2>&1 | tee "$OUT/pytest.log" | tail -4
echo "tests after $(( $(date +%s) - start )) s"
timeout 90 compute-sanitizer --tool memcheck --print-limit 20 python3 scripts/tma_gather_sanitize.py 2>&1 \
  | tail -4 | tee "$OUT/memcheck.log"
echo "memcheck after $(( $(date +%s) - start )) s"
for round in 1 2; do
  (cd scripts && timeout 120 python3 quick_timing.py l1_68_convt3d_square_input_asym_kernel \
    l2_61_convt3d_relu_groupnorm fam03_convt3d_k3_64x64x64 --precision tf32 --algorithm auto igemm_tma_window \
    --runs 10 --json "$OUT/timing_round$round.json" 2>&1 | sed "s/^/round $round: /" | tee -a "$OUT/timing.log")
done
(cd scripts && timeout 120 python3 quick_timing.py l1_71_convt2d_asym_input_square_kernel fam01_convt2d_k3_1024x1024 \
  fam06_convt2d_k3x5_128x256 fam07_convt3d_k3_96x96x96 --precision tf32 --algorithm auto igemm_tma_window --runs 10 \
  --json "$OUT/timing_others.json" 2>&1 | tee -a "$OUT/timing.log")
echo "timing after $(( $(date +%s) - start )) s"
cd "$OUT" && tar czf logs.tgz pytest.log memcheck.log timing.log timing_*.json build.log && rm -f timing_*.json build.log
echo "total $(( $(date +%s) - start )) s"
