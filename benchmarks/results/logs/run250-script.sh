#!/usr/bin/env bash
# Run 250: the fixed tap-pairs test and the fused/optimize GPU tests on the final state, then the 3D U-Net decoder
# block (issue 5's block target: up-conv k2 s2 + activation + GroupNorm) through `tconv bench` in TF32, exact fp32 and
# bf16, now that the fused module runs as one op.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_fused_gpu.py tests/test_optimize_gpu.py \
  "tests/test_conv_transpose_gpu.py::test_unit_stride_tap_pairs_where_switched" > $OUT/pytest.log 2>&1
echo "GPU tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest.log; grep -E "^FAILED|^ERROR" $OUT/pytest.log | head
mkdir -p /tmp/b
for prec in tf32 fp32 bf16; do
  timeout 100 python3 -m tconv bench real_unet3d_up_block --precision $prec --no-compile --runs 20 --warmup 3 \
    --out /tmp/b > /tmp/b/bench_$prec.log 2>&1; echo "bench $prec rc $? ($((SECONDS-t0)) s)"; grep -E "^\[" /tmp/b/bench_$prec.log | cut -c1-220
done
cp /tmp/b/*.json /tmp/b/*.log $OUT/ 2>/dev/null
echo "done $((SECONDS-t0)) s"
