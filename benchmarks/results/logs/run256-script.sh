#!/usr/bin/env bash
# Run 256: session 37's wide_rows_128 and group_stats_on_staged_store patches, applied together (the latter ported onto
# e4f85d6's output_at by hand). The unit-stride / strip GPU tests with TCONV_UNIT_STRIDE_WIDE_ROWS 1 and 0, the fused
# conv-store statistics tests, then same-build A/Bs: WIDE_ROWS 1/0 on L2-61, fam06, fam04 (TF32, bf16) and
# CONV_STORE_STATISTICS 1/0 on L2-61 (TF32, bf16).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
MAX_JOBS=16 python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
K="unit_stride or strip_grad_input or strip_forward"
for wide in 1 0; do
  TCONV_UNIT_STRIDE_WIDE_ROWS=$wide timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py \
    -k "$K" > $OUT/pytest_wide$wide.log 2>&1
  echo "GPU tests WIDE_ROWS=$wide rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_wide$wide.log
  grep -E "^FAILED|^ERROR" $OUT/pytest_wide$wide.log | head -10
done
timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_fused_gpu.py -k "conv_store" > $OUT/pytest_stats.log 2>&1
echo "conv-store stats tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_stats.log; grep -E "^FAILED|^ERROR" $OUT/pytest_stats.log | head
OUT=$OUT/ab_wide SWITCH=TCONV_UNIT_STRIDE_WIDE_ROWS VALUES="1 0" ROUNDS=2 PRECISIONS="tf32 bf16" timeout 200 \
  bash scripts/device_switch_ab.sh l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256 fam04_convt1d_k3_65536 \
  > $OUT/switch_wide_rows.log 2>&1
echo "A/B wide rows rc $? ($((SECONDS-t0)) s)"; grep fwd $OUT/switch_wide_rows.log | sed 's/ \+/ /g' | cut -c1-150
OUT=$OUT/ab_stats SWITCH=TCONV_CONV_STORE_STATISTICS VALUES="1 0" ROUNDS=2 PRECISIONS="tf32 bf16" timeout 120 \
  bash scripts/device_switch_ab.sh l2_61_convt3d_relu_groupnorm > $OUT/switch_stats.log 2>&1
echo "A/B stats rc $? ($((SECONDS-t0)) s)"; grep fwd $OUT/switch_stats.log | sed 's/ \+/ /g' | cut -c1-150
echo "done $((SECONDS-t0)) s"
