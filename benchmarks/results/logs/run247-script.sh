#!/usr/bin/env bash
# Run 247: run 246 had L2-61's forward 0.2 ms slower with the conv-store statistics (TF32 1.759 ms, bf16 1.269, against
# 1.56 / 1.033 before) and `tconv verify` fp32 failing grad_params (its log did not come back). This run: the stats loop
# with the lane's row tags in registers and the rows unrolled; the fused GPU tests; the fp32 verify printed; a
# same-build A/B of TCONV_CONV_STORE_GROUP_STATS=1/0 (L2-61 TF32 and bf16) and the kernel breakdown both ways.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_fused_gpu.py > $OUT/pytest_fused.log 2>&1
echo "fused GPU tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_fused.log; grep -E "^FAILED|^ERROR" $OUT/pytest_fused.log | head
timeout 120 python3 -m tconv verify problems/l2_61_convt3d_relu_groupnorm.py --precision fp32 --trials 3 > $OUT/verify_fp32.log 2>&1
echo "verify fp32 rc $?"; grep -v PASS $OUT/verify_fp32.log | tail -25
OUT=$OUT/ab SWITCH=TCONV_CONV_STORE_GROUP_STATS VALUES="1 0" ROUNDS=2 PRECISIONS="tf32 bf16" timeout 200 \
  bash scripts/device_switch_ab.sh l2_61_convt3d_relu_groupnorm > $OUT/switch_stats.log 2>&1
echo "A/B rc $? ($((SECONDS-t0)) s)"; grep fwd $OUT/switch_stats.log | sed 's/ \+/ /g'
for v in 1 0; do
  TCONV_CONV_STORE_GROUP_STATS=$v timeout 100 python3 scripts/kernel_breakdown.py l2_61_convt3d_relu_groupnorm \
    --precision tf32 bf16 --iters 3 > $OUT/breakdown_$v.log 2>&1; echo "breakdown stats=$v rc $?"; cut -c1-170 $OUT/breakdown_$v.log | head -24
done
tar -czf $OUT/ab.tar.gz -C $OUT ab && rm -rf $OUT/ab
echo "done $((SECONDS-t0)) s"
