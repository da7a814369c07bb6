#!/usr/bin/env bash
# Run 255: the unit-stride forward's row stores (a56567e) under memcheck and racecheck (fp32 and bf16: 128-channel
# x-as-A tiles with even lines (row pairs) and odd lines (one row per thread), 64-channel weights-as-A tiles, a
# channels_last output), fam13 bf16 again (run 253's suite row had fwd+bwd 1.46 ms, p20-p80 1.43-1.53, against 1.14
# before, on kernels this change does not touch), then the whole GPU test directory with the time left.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
cat > /tmp/row_stores.py <<'PY'
import torch, tconv
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
cases = 0
for dtype in (torch.float32, torch.bfloat16):
    for c_out, w_in, channels_last in ((128, 20, False), (130, 19, False), (64, 22, False), (40, 21, False),
                                       (128, 20, True)):
        x = torch.randn(2, 24, 5, 6, w_in, device="cuda", dtype=dtype)
        if channels_last:
            x = x.contiguous(memory_format=torch.channels_last_3d)
        w = torch.randn(24, c_out, 2, 3, 5, device="cuda", dtype=dtype)
        b = torch.randn(c_out, device="cuda", dtype=dtype)
        with tconv._ops.use_algorithm("igemm_strip"):
            y = tconv.functional.conv_transpose3d(x, w, b, padding=(1, 0, 2))
        torch.cuda.synchronize()
        cases += 1
print(f"row_stores: {cases} unit-stride forwards")
PY
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --kernel-name kns=unit_stride_forward python3 /tmp/row_stores.py \
    > $OUT/sanitize_$tool.log 2>&1; echo "$tool rc $? ($((SECONDS-t0)) s)"; tail -2 $OUT/sanitize_$tool.log
done
mkdir -p /tmp/b && timeout 60 python3 -m tconv bench fam13_convt2d_k3_s5_p1_d2_64x128 --precision bf16 --no-compile \
  --runs 20 --warmup 3 --out /tmp/b > /tmp/b/bench.log 2>&1; echo "bench rc $?"; cp /tmp/b/bench_*.json /tmp/b/bench.log $OUT/
grep -E "^\[" /tmp/b/bench.log | cut -c1-220
left=$(( 590 - (SECONDS - t0) ))
timeout $left python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
echo "GPU tests rc $? ($((SECONDS-t0)) s)"; tail -2 $OUT/pytest.log; grep -E "^FAILED|^ERROR" $OUT/pytest.log | head -20
echo "done $((SECONDS-t0)) s"
