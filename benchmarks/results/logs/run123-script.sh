#!/usr/bin/env bash
# Run 123 (session 18): Nsight Compute of the strip kernel on HiFi-GAN's grad_input (TF32): the stall breakdown
# and the SASS source page (offline: scripts/ncu_source_summary.py).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > $OUT/build.log 2>&1 || { tail -40 $OUT/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 60 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip" 2>&1 | tail -2
KERNEL=strip_grad_input CASES="hifigan:real_hifigan_up:tf32" OUT=$OUT bash scripts/ncu_stalls.sh
KERNEL=strip_grad_input CASES="hifigan:real_hifigan_up:tf32" OUT=$OUT bash scripts/ncu_source.sh
python3 scripts/ncu_source_summary.py $OUT/src_hifigan.csv 2>&1 | head -60
echo "done $((SECONDS-t0)) s"
