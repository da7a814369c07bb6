#!/usr/bin/env bash
# Run 174 (session 26): the rows grad_weight kernel (tconv_igemm_grad_weight_wgmma_rows_kernel: 2D W-stride-2 folds,
# two kH rows per block sharing a 128-channel x tile). Build; its tests and the neighbouring grad_weight tests;
# memcheck of sanitize_small.py; a same-build A/B of TCONV_GRAD_WEIGHT_ROWS (1: rows kernel, 0: the kernels before)
# on DCGAN and the VAE (fwd+bwd and forward, TF32); the kernel breakdown of DCGAN.
# Usage: COMMIT=<sha from the development machine> bash run174.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -x -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py tests/test_grad_weight_ordered_gpu.py \
  -k "grad_weight_rows or packed_taps_where or ordered" > $OUT/pytest.log 2>&1
echo "pytest rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
echo "t $((SECONDS-t0)) s"
timeout 90 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -2 $OUT/memcheck.log
echo "t $((SECONDS-t0)) s"
OUT=/tmp/ab SWITCH=TCONV_GRAD_WEIGHT_ROWS VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" \
  timeout 120 bash scripts/device_switch_ab.sh real_dcgan_up real_vae_up > $OUT/ab.log 2>&1
echo "ab rc $?"; grep -v "^ " $OUT/ab.log | cut -c1-200
echo "t $((SECONDS-t0)) s"
(cd scripts && timeout 60 python3 kernel_breakdown.py real_dcgan_up --precision tf32 --iters 3) > $OUT/breakdown.log 2>&1
echo "breakdown rc $?"; head -30 $OUT/breakdown.log | cut -c1-200
echo "done $((SECONDS-t0)) s"
