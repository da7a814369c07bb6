#!/usr/bin/env bash
# Run 246: GroupNorm statistics in the unit-stride forward's store (the fused conv -> activation -> GroupNorm as one op,
# tconv::conv_transpose_act_group_norm): the fused and optimize GPU tests, memcheck and racecheck of the new epilogue,
# L2-61 verified in both fp32 modes and bf16, then `tconv bench` of L2-61 in TF32, exact fp32 and bf16. Predicted: the
# statistics pass (0.085-0.098 ms in TF32, about half in bf16) leaves the forward, less the epilogue's ~3.5 % of the
# conv (~0.05 ms): L2-61 TF32 fwd 1.56 -> ~1.50 ms; exact fp32 unchanged (the unit-stride form needs TF32 or 16-bit).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_fused_gpu.py tests/test_optimize_gpu.py \
  > $OUT/pytest_fused.log 2>&1
echo "fused GPU tests rc $? ($((SECONDS-t0)) s)"; tail -2 $OUT/pytest_fused.log; grep -E "^FAILED|^ERROR|Error" $OUT/pytest_fused.log | head -20
cat > /tmp/fused_small.py <<'PY'
import torch, tconv
from tconv import fused
torch.backends.cudnn.allow_tf32 = True
for dtype in (torch.float32, torch.bfloat16):
    for c_out, groups in ((128, 8), (160, 10), (256, 1)):
        x = torch.randn(3, 16, 5, 6, 9, device="cuda", dtype=dtype)
        w = torch.randn(16, c_out, 3, 3, 3, device="cuda", dtype=dtype)
        with tconv._ops.use_algorithm("igemm_strip"):
            z = fused._conv_act_group_norm_cuda(x, w, None, None, None, [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], 1,
                                                groups, 1e-5, "relu", 0.0, 0.0)[0]
        torch.cuda.synchronize()
print("fused_small: ran the conv-store statistics on 6 cases")
PY
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --kernel-name kns=unit_stride_forward python3 /tmp/fused_small.py \
    > $OUT/sanitize_$tool.log 2>&1; echo "$tool rc $?"; tail -2 $OUT/sanitize_$tool.log
done
for prec in tf32 fp32 bf16; do
  timeout 120 python3 -m tconv verify problems/l2_61_convt3d_relu_groupnorm.py --precision $prec --trials 3 \
    > $OUT/verify_l2_61_$prec.log 2>&1; echo "verify $prec rc $?"; tail -3 $OUT/verify_l2_61_$prec.log
done
mkdir -p /tmp/b
for prec in tf32 bf16 fp32; do
  timeout 150 python3 -m tconv bench l2_61_convt3d_relu_groupnorm --precision $prec --no-compile --runs 20 --warmup 3 \
    --out /tmp/b > /tmp/b/bench_$prec.log 2>&1; echo "bench $prec rc $? ($((SECONDS-t0)) s)"; grep -E "^\[" /tmp/b/bench_$prec.log | cut -c1-220
done
cp /tmp/b/*.json /tmp/b/*.log $OUT/ 2>/dev/null
echo "done $((SECONDS-t0)) s"
