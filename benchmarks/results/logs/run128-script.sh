#!/usr/bin/env bash
# Run 128 (session 18): Nsight Compute of grad_weight's strip kernel on HiFi-GAN (TF32; run 127 timed it at 6.60 ms,
# no faster than the GEMM it replaces): stall breakdown and source page.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > $OUT/build.log 2>&1 || { tail -40 $OUT/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
KERNEL=strip_grad_weight CASES="hifigan:real_hifigan_up:tf32" OUT=$OUT bash scripts/ncu_stalls.sh
KERNEL=strip_grad_weight CASES="hifigan:real_hifigan_up:tf32" OUT=$OUT bash scripts/ncu_source.sh
python3 scripts/ncu_source_summary.py --top 30 $OUT/src_hifigan.csv 2>&1 | head -50
echo "done $((SECONDS-t0)) s"
