#!/usr/bin/env bash
# Run 119 (session 17): the specialized tile releases the previous stage before waiting when the next has not
# landed (working tree on 457ded2) against 457ded2 (ab_old): specialized GPU tests, racecheck and memcheck of
# tests/sanitize_small.py, then A/B on the shapes that take the tile (TF32, two rounds).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1
t0=$SECONDS
OUT=/tmp/ab ROUNDS=0 bash scripts/device_ab.sh ab_old > /tmp/ab_build.log 2>&1 || { cat /tmp/ab_build.log; tail -30 /tmp/ab/build_new.log; exit 1; }
echo "builds $((SECONDS-t0)) s"
export TCONV_BUILD_DIR=/tmp/tconv_build
timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_specialized_gpu.py > $OUT/pytest.log 2>&1; tail -2 $OUT/pytest.log
timeout 100 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -2 $OUT/racecheck.log
timeout 40 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
echo "tests $((SECONDS-t0)) s"
OUT=/tmp/ab SKIP_BUILD=1 ROUNDS=2 PRECISIONS=tf32 bash scripts/device_ab.sh ab_old \
  l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256 real_dcgan_up real_hifigan_up fam04_convt1d_k3_65536 2>&1 | tee $OUT/ab.log
echo "done $((SECONDS-t0)) s"
