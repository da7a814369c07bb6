#!/usr/bin/env bash
# Run 112 (session 17): bulk-copied B on every wgmma gather tile: whole GPU test directory, then same-machine
# A/B against b0e89e0 (ab_old) on shapes of the plain wgmma tiles, TF32, one round.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1
t0=$SECONDS
OUT=/tmp/ab ROUNDS=0 bash scripts/device_ab.sh ab_old > /tmp/ab_build.log 2>&1 || { cat /tmp/ab_build.log; tail -30 /tmp/ab/build_new.log; exit 1; }
echo "builds $((SECONDS-t0)) s"
TCONV_BUILD_DIR=/tmp/tconv_build timeout 230 python3 -m pytest -q -x -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1; tail -3 $OUT/pytest.log
echo "tests $((SECONDS-t0)) s"
OUT=/tmp/ab SKIP_BUILD=1 ROUNDS=1 PRECISIONS=tf32 bash scripts/device_ab.sh ab_old \
  l1_68_convt3d_square_input_asym_kernel fam01_convt2d_k3_1024x1024 real_vae_up real_unet3d_up 2>&1 | tee $OUT/ab.log
echo "done $((SECONDS-t0)) s"
