#!/usr/bin/env bash
# Run 263: 9509bc4 (x pairs, the review mend) through memcheck and racecheck on the unit-stride forward (bf16 even lines with even W padding take x pairs; odd lines, 130 channels, tap pairs, channels_last and the statistics path do not) and the whole GPU test directory.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
MAX_JOBS=16 python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
cat > /tmp/unit_stride_sanitize.py <<'PY'
import torch, torch.nn as nn, tconv
from tconv import fused
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
cases = 0
for dtype in (torch.float32, torch.bfloat16):
    for c_out, w_in, channels_last in ((128, 20, False), (130, 19, False), (64, 22, False), (32, 21, False),
                                       (17, 20, False), (128, 20, True), (64, 19, False), (128, 24, False)):
        x = torch.randn(2, 24, 5, 6, w_in, device="cuda", dtype=dtype)
        if channels_last:
            x = x.contiguous(memory_format=torch.channels_last_3d)
        w = torch.randn(24, c_out, 2, 3, 5, device="cuda", dtype=dtype)
        b = torch.randn(c_out, device="cuda", dtype=dtype)
        with tconv._ops.use_algorithm("igemm_strip"):
            y = tconv.functional.conv_transpose3d(x, w, b, padding=(1, 0, 2))
        torch.cuda.synchronize()
        cases += 1
    fused.CONV_STORE_STATISTICS = True
    seq = nn.Sequential(nn.ConvTranspose3d(16, 128, 3), nn.ReLU(), nn.GroupNorm(8, 128)).cuda().to(dtype)
    module = tconv.ConvTransposeActGroupNorm3d.fuse(seq[0], seq[1], seq[2])
    with tconv._ops.use_algorithm("igemm_strip"):
        module(torch.randn(3, 16, 5, 6, 9, device="cuda", dtype=dtype))
    torch.cuda.synchronize()
    fused.CONV_STORE_STATISTICS = False
    cases += 1
print(f"unit_stride_sanitize: {cases} cases")
PY
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --kernel-name kns=unit_stride_forward python3 /tmp/unit_stride_sanitize.py \
    > $OUT/sanitize_$tool.log 2>&1; echo "$tool rc $? ($((SECONDS-t0)) s)"; tail -2 $OUT/sanitize_$tool.log
done
left=$(( 590 - (SECONDS - t0) ))
timeout $left python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
echo "GPU tests rc $? ($((SECONDS-t0)) s)"; tail -2 $OUT/pytest.log; grep -E "^FAILED|^ERROR" $OUT/pytest.log | head -20
