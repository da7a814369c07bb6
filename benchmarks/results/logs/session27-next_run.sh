#!/usr/bin/env bash
# Prepared in session 27, not run there (the session had 114 s of device time). Two patches on top of COMMIT, applied
# here in order; each has a development switch for a same-build A/B:
#   session27-rows_specialized.patch: the warp-specialized rows grad_weight kernel (DCGAN, VAE: 2D W-stride-2 folds).
#     TCONV_GRAD_WEIGHT_ROWS_SPECIALIZED 1 (default) = producer warpgroup + setmaxnreg, 0 = the block-barrier form.
#   session27-grad_weight_shifted_x.patch: the shifted-x grad_weight kernel (W stride 1, kernel W <= 5, 16-32 input
#     channels per group: L1-68 and L1-71 in the suite). TCONV_GRAD_WEIGHT_SHIFTED_X 1 (default) = on, 0 = the kernels
#     before (the many-tap mma.sync tile). L1-71's C_out of 32 fills half of each m64: if it loses there, narrow
#     grad_weight_takes_shifted_x (e.g. C_out per group >= 48) before landing.
# Build; the rows and shifted-x tests; memcheck and racecheck of sanitize_small.py (it has a call for each kernel);
# the two A/Bs (TF32 fwd+bwd); then, if time is left, synccheck and the kernel breakdowns.
# Predicted (notes/perf.md Session 27): DCGAN grad_weight ~0.42 -> ~0.30 ms (fwd+bwd 1.385 -> ~1.27 ms); L1-68
# grad_weight 14.2 -> ~6-7 ms without the sliding window (L2-bound at ~29 GB), fwd+bwd 28.9 -> ~21 ms.
# Returns 8 files (the limit): pytest, memcheck, racecheck, synccheck and breakdown logs, both A/B logs, ab_json.tgz.
# Usage: COMMIT=<sha from the development machine> bash benchmarks/results/logs/session27-next_run.sh   (~580 s)
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
L=benchmarks/results/logs
if ! grep -q rows_specialized_kernel tconv/csrc/conv_transpose_igemm.cu; then
  git apply $L/session27-rows_specialized.patch 2>/dev/null || patch -p1 < $L/session27-rows_specialized.patch || { echo "patch 1 did not apply"; exit 1; }
fi
if ! grep -q shifted_x_kernel tconv/csrc/conv_transpose_igemm.cu; then
  git apply $L/session27-grad_weight_shifted_x.patch 2>/dev/null || patch -p1 < $L/session27-grad_weight_shifted_x.patch || { echo "patch 2 did not apply"; exit 1; }
fi
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv digest
timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "grad_weight_rows or shifted_x" \
  > $OUT/pytest.log 2>&1
echo "rows + shifted-x tests rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
TCONV_GRAD_WEIGHT_ROWS_SPECIALIZED=0 timeout 60 python3 -m pytest -q -rfE -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py -k "grad_weight_rows" >> $OUT/pytest.log 2>&1
echo "rows tests (block barrier) rc $?"; tail -1 $OUT/pytest.log
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool python3 tests/sanitize_small.py > $OUT/$tool.log 2>&1
  echo "$tool rc $?"; tail -1 $OUT/$tool.log
done
echo "t $((SECONDS-t0)) s"
OUT=/tmp/ab/rows SWITCH=TCONV_GRAD_WEIGHT_ROWS_SPECIALIZED VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" \
  timeout 100 bash scripts/device_switch_ab.sh real_dcgan_up real_vae_up > $OUT/ab_rows.log 2>&1
echo "ab rows rc $?"; grep -v "^ " $OUT/ab_rows.log | cut -c1-200
OUT=/tmp/ab/shifted_x SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" \
  timeout 150 bash scripts/device_switch_ab.sh l1_68_convt3d_square_input_asym_kernel \
  l1_71_convt2d_asym_input_square_kernel > $OUT/ab_shifted.log 2>&1
echo "ab shifted-x rc $?"; grep -v "^ " $OUT/ab_shifted.log | cut -c1-200
tar czf $OUT/ab_json.tgz -C /tmp/ab . 2>/dev/null  # quick_timing's JSON rows (GPU, versions) for benchmarks/results
echo "t $((SECONDS-t0)) s"
if [ $((SECONDS-t0)) -lt 480 ]; then
  timeout 60 compute-sanitizer --tool synccheck python3 tests/sanitize_small.py > $OUT/synccheck.log 2>&1
  echo "synccheck rc $?"; tail -1 $OUT/synccheck.log
fi
if [ $((SECONDS-t0)) -lt 530 ]; then
  (cd scripts && timeout 50 python3 kernel_breakdown.py real_dcgan_up l1_68_convt3d_square_input_asym_kernel \
    l1_71_convt2d_asym_input_square_kernel \
    --precision tf32 --iters 3) > $OUT/breakdown.log 2>&1
  echo "breakdown rc $?"; grep -E "^==|grad_weight" $OUT/breakdown.log | cut -c1-160
fi
echo "done $((SECONDS-t0)) s"
