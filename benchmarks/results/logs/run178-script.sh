#!/usr/bin/env bash
# Run 178 (session 26): run 176 again with the grad_output boxes starting 16-byte aligned (run 177: a W coordinate
# of -1 faults), raw boxes of 32 channels x 56 W positions; one or two units per stage
# (TCONV_GRAD_WEIGHT_ROWS=1 / 2). Build; the rows tests (both forms); memcheck; a same-build A/B of
# TCONV_GRAD_WEIGHT_ROWS 1 / 2 / 0 on DCGAN and the VAE (TF32); the kernel breakdown; Nsight Compute stalls.
# Usage: COMMIT=<sha from the development machine> bash run178.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
nvcc -std=c++17 -gencode=arch=compute_90a,code=sm_90a scripts/tma_probe.cu -o /tmp/tma_probe 2>/dev/null && \
  for args in "32 56 -4 0 -1 0 0" "32 56 28 0 0 0 0" "16 16 -16 0 0 0 0"; do timeout 20 /tmp/tma_probe $args; done
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 100 python3 -m pytest -q -x -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "grad_weight_rows" > $OUT/pytest.log 2>&1
echo "pytest rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
TCONV_GRAD_WEIGHT_ROWS=2 timeout 100 python3 -m pytest -q -x -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "grad_weight_rows and (tf32 or where)" >> $OUT/pytest.log 2>&1
echo "pytest (two units) rc $?"; tail -1 $OUT/pytest.log
timeout 90 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -2 $OUT/memcheck.log
echo "t $((SECONDS-t0)) s"
OUT=/tmp/ab SWITCH=TCONV_GRAD_WEIGHT_ROWS VALUES="1 2 0" ROUNDS=2 PRECISIONS="tf32" \
  timeout 150 bash scripts/device_switch_ab.sh real_dcgan_up real_vae_up > $OUT/ab.log 2>&1
echo "ab rc $?"; grep -v "^ " $OUT/ab.log | cut -c1-200
echo "t $((SECONDS-t0)) s"
(cd scripts && timeout 60 python3 kernel_breakdown.py real_dcgan_up real_vae_up --precision tf32 --iters 3) > $OUT/breakdown.log 2>&1
echo "breakdown rc $?"; grep -E "^==|grad_weight|sum_splits" $OUT/breakdown.log | cut -c1-160
echo "t $((SECONDS-t0)) s"
OUT=$OUT KERNEL=grad_weight_wgmma_rows CASES="dcgan_tf32:real_dcgan_up:tf32 vae_tf32:real_vae_up:tf32" \
  timeout 200 bash scripts/ncu_stalls.sh 2>&1 | cut -c1-200
echo "done $((SECONDS-t0)) s"
