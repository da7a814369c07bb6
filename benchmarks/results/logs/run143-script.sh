#!/usr/bin/env bash
# Run 143 (session 20): run 142 again with the PyTorch grad_weight reference fixed (run 142 timed grad_bias: output_mask
# [F, F, T]) and three mid-size shapes to locate the small-shape boundary (run 142: batch 1, 64 -> 32, W 256 lost).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout $((570-SECONDS)) python3 scripts/strip_sweep.py --runs 10 --json $OUT/strip_sweep.json 2>&1 | grep -v Warn | tee $OUT/strip_sweep.log
echo "done $((SECONDS-t0)) s"
