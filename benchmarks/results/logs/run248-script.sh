#!/usr/bin/env bash
# Run 248: the conv-store GroupNorm statistics computed octet by octet in registers while the store walks them (run
# 247: the shared-memory form cost 0.13-0.14 ms of L2-61's forward: a wash in TF32, a 0.05 ms loss in bf16). The fused
# GPU tests; memcheck and racecheck of the new store; a same-build A/B TCONV_CONV_STORE_GROUP_STATS=1/0 (L2-61 TF32 and
# bf16, two rounds) and the kernel breakdown with the statistics. Predicted: ~0.04 ms of epilogue against the pass's
# 0.13 (TF32) and 0.085 (bf16).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_fused_gpu.py > $OUT/pytest_fused.log 2>&1
echo "fused GPU tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_fused.log; grep -E "^FAILED|^ERROR" $OUT/pytest_fused.log | head
cat > /tmp/fused_small.py <<'PY'
import torch, tconv
from tconv import fused
torch.backends.cudnn.allow_tf32 = True
for dtype in (torch.float32, torch.bfloat16):
    for c_out, groups, act in ((128, 8, "relu"), (160, 10, "silu"), (256, 1, "gelu")):
        x = torch.randn(3, 16, 5, 6, 9, device="cuda", dtype=dtype)
        w = torch.randn(16, c_out, 3, 3, 3, device="cuda", dtype=dtype)
        with tconv._ops.use_algorithm("igemm_strip"):
            z = fused._conv_act_group_norm_cuda(x, w, None, None, None, [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], 1,
                                                groups, 1e-5, act, 0.0, 0.0)[0]
        torch.cuda.synchronize()
print("fused_small: ran the conv-store statistics on 6 cases")
PY
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --kernel-name kns=unit_stride_forward python3 /tmp/fused_small.py \
    > $OUT/sanitize_$tool.log 2>&1; echo "$tool rc $?"; tail -2 $OUT/sanitize_$tool.log
done
OUT=$OUT/ab SWITCH=TCONV_CONV_STORE_GROUP_STATS VALUES="1 0" ROUNDS=2 PRECISIONS="tf32 bf16" timeout 200 \
  bash scripts/device_switch_ab.sh l2_61_convt3d_relu_groupnorm > $OUT/switch_stats.log 2>&1
echo "A/B rc $? ($((SECONDS-t0)) s)"; grep fwd $OUT/switch_stats.log | sed 's/ \+/ /g'
for v in 1; do
  TCONV_CONV_STORE_GROUP_STATS=$v timeout 100 python3 scripts/kernel_breakdown.py l2_61_convt3d_relu_groupnorm \
    --precision tf32 bf16 --iters 3 > $OUT/breakdown_$v.log 2>&1; echo "breakdown stats=$v rc $?"; cut -c1-170 $OUT/breakdown_$v.log | head -24
done
tar -czf $OUT/ab.tar.gz -C $OUT ab && rm -rf $OUT/ab
echo "done $((SECONDS-t0)) s"
