#!/usr/bin/env bash
# Run 181 (prepared in session 27, not run there: that session had 114 s of device time). The warp-specialized rows
# grad_weight kernel, benchmarks/results/logs/session27-rows_specialized.patch applied here on top of COMMIT
# (TCONV_GRAD_WEIGHT_ROWS_SPECIALIZED: 1, the patch's default = a producer warpgroup (TMA issue + the x rounding into
# each slot's own B tile) and two consumer warpgroups without a block barrier, setmaxnreg 40 / 232; 0 = the
# block-barrier form of 0a45e04). Build; the rows tests in both forms; memcheck, racecheck, synccheck of
# sanitize_small.py; a same-build A/B of the two forms (DCGAN, VAE, TF32 fwd+bwd); the kernel breakdown; ncu stalls.
# Predicted: DCGAN's grad_weight ~0.42 ms (two units, run 178) -> ~0.30 ms if the barrier stall (3.2 per issue, the
# leading one in run 178) goes and the tensor pipe's share rises from 32 % toward 45 %; fwd+bwd 1.385 -> ~1.27 ms.
# Usage: COMMIT=<sha from the development machine> bash benchmarks/results/logs/session27-next_run.sh    (~560 s on an H200)
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
PATCH=benchmarks/results/logs/session27-rows_specialized.patch
if ! grep -q rows_specialized_kernel tconv/csrc/conv_transpose_igemm.cu; then
  git apply "$PATCH" 2>/dev/null || patch -p1 < "$PATCH" || { echo "patch did not apply"; exit 1; }
fi
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv digest
timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "grad_weight_rows" \
  > $OUT/pytest.log 2>&1
echo "rows tests (specialized) rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
TCONV_GRAD_WEIGHT_ROWS_SPECIALIZED=0 timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py -k "grad_weight_rows" >> $OUT/pytest.log 2>&1
echo "rows tests (block barrier) rc $?"; tail -1 $OUT/pytest.log
for tool in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool python3 tests/sanitize_small.py > $OUT/$tool.log 2>&1
  echo "$tool rc $?"; tail -1 $OUT/$tool.log
done
echo "t $((SECONDS-t0)) s"
OUT=/tmp/ab SWITCH=TCONV_GRAD_WEIGHT_ROWS_SPECIALIZED VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" \
  timeout 120 bash scripts/device_switch_ab.sh real_dcgan_up real_vae_up > $OUT/ab.log 2>&1
echo "ab rc $?"; grep -v "^ " $OUT/ab.log | cut -c1-200
echo "t $((SECONDS-t0)) s"
for v in 1 0; do
  (cd scripts && TCONV_GRAD_WEIGHT_ROWS_SPECIALIZED=$v timeout 45 python3 kernel_breakdown.py real_dcgan_up \
    --precision tf32 --iters 3) > $OUT/breakdown_$v.log 2>&1
  echo "breakdown specialized=$v rc $?"; grep -E "^==|grad_weight" $OUT/breakdown_$v.log | cut -c1-160
done
echo "t $((SECONDS-t0)) s"
OUT=$OUT KERNEL=grad_weight_wgmma_rows CASES="dcgan_tf32:real_dcgan_up:tf32" \
  timeout $((585-SECONDS+t0)) bash scripts/ncu_stalls.sh 2>&1 | cut -c1-200
echo "done $((SECONDS-t0)) s"
