#!/usr/bin/env bash
# Run 240: the exact fp32 two-tap W-tap window rule (use_window) on a GPU: the window and phase-split tests, the
# exact grid, and HiFi-GAN's exact row through `tconv bench`.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "exact_two_tap or phase_split or window or fp32" > $OUT/pytest.log 2>&1
echo "GPU tests rc $? ($((SECONDS-t0)) s)"; tail -2 $OUT/pytest.log; grep -E "^FAILED|^ERROR" $OUT/pytest.log | head -20
mkdir -p /tmp/b && timeout 150 python3 -m tconv bench real_hifigan_up real_dcgan_up --precision fp32 --no-compile \
  --runs 20 --warmup 3 --out /tmp/b > /tmp/b/bench.log 2>&1; echo "bench rc $?"; cp /tmp/b/bench_*.json /tmp/b/bench.log $OUT/
grep -E "^\[" /tmp/b/bench.log | cut -c1-220
echo "done $((SECONDS-t0)) s"
