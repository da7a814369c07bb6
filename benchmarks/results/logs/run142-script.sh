#!/usr/bin/env bash
# Run 142 (session 20): scripts/strip_sweep.py at 37b90ae's kernels: each pass of eight 1D shapes at W stride
# 8/16/32 with whole-stride kernels (HiFi-GAN's two up-sampling layers, a small and a few-channel one, T = 1, 2, 4)
# under "auto" (the strip kernels) against the GEMMs auto would run without them, with PyTorch's same pass.
# Question: does "auto" lose anywhere it takes a strip kernel (session 19 left small shapes untimed)?
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout $((570-SECONDS)) python3 scripts/strip_sweep.py --runs 10 --json $OUT/strip_sweep.json 2>&1 | grep -v Warn | tee $OUT/strip_sweep.log
echo "done $((SECONDS-t0)) s"
