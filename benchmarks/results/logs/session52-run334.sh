#!/usr/bin/env bash
# Run 334: first GPU run of c54fbe2 (TMA gather partial boxes and the 64-column tile, "igemm_tma" only) and 9344280
# (no-grad eager forward skips the autograd.Function): build, the TMA gather / igemm TF32 / fused / optimize GPU
# tests, memcheck of the TMA workload (now with a partial-box 3D call), and L1-68 / L2-61 timings under "auto" and
# "igemm_tma" in alternating processes (two rounds) to decide whether "auto" gets a rule for partial boxes.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 90 python3 -m pytest -q -rfE --maxfail=20 -p no:cacheprovider tests/test_gather_tma_gpu.py \
  2>&1 | tee "$OUT/pytest.log" | tail -4
timeout 100 python3 -m pytest -q -rfE --maxfail=20 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "tf32 and igemm" 2>&1 | tee -a "$OUT/pytest.log" | tail -2
timeout 90 python3 -m pytest -q -rfE --maxfail=20 -p no:cacheprovider tests/test_fused_gpu.py \
  tests/test_optimize_gpu.py 2>&1 | tee -a "$OUT/pytest.log" | tail -2
echo "tests after $(( $(date +%s) - start )) s"
timeout 90 compute-sanitizer --tool memcheck --print-limit 20 python3 scripts/tma_gather_sanitize.py 2>&1 \
  | tail -6 | tee "$OUT/memcheck.log"
echo "memcheck after $(( $(date +%s) - start )) s"
for round in 1 2; do
  for alg in auto igemm_tma; do
    (cd scripts && timeout 60 python3 quick_timing.py l1_68_convt3d_square_input_asym_kernel \
      l2_61_convt3d_relu_groupnorm --precision tf32 --algorithm $alg --runs 10 \
      --json "$OUT/timing_${alg}_round${round}.json" 2>&1 | sed "s/^/round $round: /" | tee -a "$OUT/timing.log")
  done
done
echo "timing after $(( $(date +%s) - start )) s"
cd "$OUT" && tar czf logs.tgz pytest.log memcheck.log timing.log timing_*.json build.log && rm -f timing_*.json build.log
echo "total $(( $(date +%s) - start )) s"
