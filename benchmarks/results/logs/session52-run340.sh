#!/usr/bin/env bash
# Run 340: the TMA window's 64-column tile at 512 positions per block (two runs of 128 per warpgroup; runs 338-339
# found the 256-position block waiting on its loads): GPU tests, memcheck, TF32 timings under "auto" and
# "igemm_tma_window" (the forward is the comparison).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 100 python3 -m pytest -q -rfE --maxfail=10 -p no:cacheprovider tests/test_gather_tma_gpu.py -k window \
  2>&1 | tee "$OUT/pytest.log" | tail -3
timeout 60 compute-sanitizer --tool memcheck --print-limit 20 python3 scripts/tma_gather_sanitize.py 2>&1 \
  | tail -3 | tee "$OUT/memcheck.log"
echo "tests after $(( $(date +%s) - start )) s"
(cd scripts && timeout 100 python3 quick_timing.py l1_68_convt3d_square_input_asym_kernel l2_61_convt3d_relu_groupnorm \
  fam03_convt3d_k3_64x64x64 fam01_convt2d_k3_1024x1024 --precision tf32 --algorithm auto igemm_tma_window --runs 10 \
  --json "$OUT/timing.json" 2>&1 | tee "$OUT/timing.log")
echo "total $(( $(date +%s) - start )) s"
rm -f "$OUT/build.log"
