#!/usr/bin/env bash
# Run 320: the fp32 unit-stride forward's early warps (warps on raw part 0's rows run their MMAs while part 1 loads),
# tested and A/B-timed in one build (TCONV_UNIT_STRIDE_MMA_EARLY_WARPS=1 / 0 in alternating processes, two rounds);
# memcheck and racecheck of the unit_stride_mma kernels; the 3D grad_weight sweep (auto against igemm_mma, TF32).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 150 python3 -m pytest -q -rfE -x --maxfail=10 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k unit_stride 2>&1 | tee "$OUT/pytest.log" | tail -4
echo "tests after $(( $(date +%s) - start )) s"
for round in 1 2; do
  for early in 1 0; do
    (cd scripts && TCONV_UNIT_STRIDE_MMA_EARLY_WARPS=$early timeout 60 python3 quick_timing.py \
      l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024 --precision tf32 --runs 20 \
      --json "$OUT/ab_early${early}_round${round}.json" 2>&1 | sed "s/^/early=$early /" | tee -a "$OUT/ab.log")
  done
done
echo "A/B after $(( $(date +%s) - start )) s"
(cd scripts && timeout 90 python3 grad_weight_sweep_3d.py 16,64,128,32 16,64,64,32 8,64,256,32 8,128,128,32 \
  16,128,64,32 4,64,128,48 32,64,128,16 8,48,48,64 4,64,64,64 8,96,96,32 8,96,192,32 8,48,96,48 \
  --json "$OUT/grad_weight_sweep.json" 2>&1 | tee "$OUT/grad_weight_sweep.log")
echo "sweep after $(( $(date +%s) - start )) s"
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --kernel-name kns=unit_stride_mma_kernel python3 tests/sanitize_small.py \
    > "$OUT/sanitize_$tool.log" 2>&1
  echo "$tool rc $?: $(tail -1 "$OUT/sanitize_$tool.log")"
done
echo "total $(( $(date +%s) - start )) s"
