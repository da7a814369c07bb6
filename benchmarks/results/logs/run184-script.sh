#!/usr/bin/env bash
# Run 184 (session 28): run 183 slid the shifted-x kernel's grad_output rows (L2 traffic ~0.56x) and L1-68 did not
# move (25.80 / 25.63 vs 25.68 / 25.85 ms), so L2 was not its limit. Next suspect: the 96 rounding threads (per unit
# 640 pieces of 4 scalar shared reads, an index decode with divisions by 5 and a bounds test each). This build's
# round_shifted_x_copies reads 3 aligned 16-byte words and rounds 12 floats per 4 pieces. Build; shifted-x tests;
# racecheck on the wgmma grad_weight kernels; same-build A/B of TCONV_GRAD_WEIGHT_SHIFTED_X_VECTOR_ROUNDING 1 / 0
# on L1-68 (TF32 fwd+bwd); the breakdown. If the rounders were the limit, L1-68's grad_weight drops from 11.6 ms.
# Usage: COMMIT=<sha from the development machine> bash run184.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 60 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "shifted_x" > $OUT/pytest.log 2>&1
echo "shifted-x tests rc $?"; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
timeout 60 compute-sanitizer --tool racecheck --kernel-name kns=grad_weight_wgmma python3 tests/sanitize_small.py \
  > $OUT/racecheck.log 2>&1
echo "racecheck (grad_weight_wgmma kernels) rc $?"; tail -1 $OUT/racecheck.log
echo "t $((SECONDS-t0)) s"
OUT=/tmp/ab/rounding SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_VECTOR_ROUNDING VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" \
  timeout 110 bash scripts/device_switch_ab.sh l1_68_convt3d_square_input_asym_kernel > $OUT/ab_rounding.log 2>&1
echo "ab rounding rc $?"; grep -v "^ " $OUT/ab_rounding.log | cut -c1-200
tar czf $OUT/ab_json.tgz -C /tmp/ab . 2>/dev/null
echo "t $((SECONDS-t0)) s"
(cd scripts && timeout 40 python3 kernel_breakdown.py l1_68_convt3d_square_input_asym_kernel --precision tf32 --iters 3) \
  > $OUT/breakdown.log 2>&1
echo "breakdown rc $?"; grep -E "^==|ms  x" $OUT/breakdown.log | cut -c1-160 | head -6
echo "done $((SECONDS-t0)) s"
