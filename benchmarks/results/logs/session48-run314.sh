#!/usr/bin/env bash
# Run 314: the unit_stride_mma GPU tests with the 21-tap TF32 rule (9f3c742), then kernel breakdowns (profiler, TF32
# fwd+bwd) of the rows furthest from their targets: DCGAN (below cuDNN-benchmark), L1-71, fam01, HiFi-GAN, fam04;
# tconv's kernels and the original Model's (cuDNN) for each.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build --break-lock > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built after $(( $(date +%s) - start )) s"
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k unit_stride_mma \
  > "$OUT/pytest.log" 2>&1
echo "pytest rc $?: $(tail -1 "$OUT/pytest.log")"; grep -E "^(FAILED|ERROR)" "$OUT/pytest.log" | head
P="real_dcgan_up l1_71_convt2d_asym_input_square_kernel fam01_convt2d_k3_1024x1024 real_hifigan_up fam04_convt1d_k3_65536"
(cd scripts && timeout 150 python3 kernel_breakdown.py $P --precision tf32 --iters 3 > "$OUT/breakdown_tconv.txt" 2>&1)
echo "tconv breakdown rc $? after $(( $(date +%s) - start )) s"
(cd scripts && timeout 150 python3 kernel_breakdown.py $P --precision tf32 --iters 3 --model original \
  > "$OUT/breakdown_cudnn.txt" 2>&1)
echo "cudnn breakdown rc $? after $(( $(date +%s) - start )) s"
