#!/usr/bin/env bash
# Run 111 (session 17): B by bulk copy (TMA, one per stage) in the warp-specialized gather tile: its GPU tests,
# then same-machine A/B against b0e89e0 (ab_old) on the shapes that take the tile, TF32.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1
t0=$SECONDS
OUT=/tmp/ab ROUNDS=0 bash scripts/device_ab.sh ab_old > /tmp/ab_build.log 2>&1 || { cat /tmp/ab_build.log; tail -30 /tmp/ab/build_new.log; exit 1; }
echo "builds $((SECONDS-t0)) s"
TCONV_BUILD_DIR=/tmp/tconv_build timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_specialized_gpu.py > $OUT/pytest.log 2>&1; tail -3 $OUT/pytest.log
echo "tests $((SECONDS-t0)) s"
OUT=/tmp/ab SKIP_BUILD=1 ROUNDS=2 PRECISIONS=tf32 bash scripts/device_ab.sh ab_old \
  l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256 real_dcgan_up real_hifigan_up 2>&1 | tee $OUT/ab.log
echo "done $((SECONDS-t0)) s"
