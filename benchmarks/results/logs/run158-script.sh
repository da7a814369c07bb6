#!/usr/bin/env bash
# Run 158 (session 22): the rows run 157's bench had no time left for (4f014a9, TF32): fam02, fam05, HiFi-GAN, as far
# as this session's last device time goes (the bench writes its JSON after each row).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
TCONV_COMMIT=4f014a9 python3 -m tconv bench fam02_convt3d_k3x5x7_16x32x64 fam05_convt2d_k3x7_512x512 real_hifigan_up \
  --precision tf32 --no-compile --runs 20 --warmup 3 --out $OUT/b > $OUT/bench.log 2>&1; tail -5 $OUT/bench.log
echo "done $((SECONDS-t0)) s"
