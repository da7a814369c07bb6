#!/usr/bin/env bash
# Run 108 (session 16): every MMA thread arrives on the stage-release mbarrier; racecheck, specialized-tile tests, timing.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1
t0=$SECONDS
python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 200 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > "$OUT/racecheck.log" 2>&1
tail -2 "$OUT/racecheck.log"; grep "Race reported" "$OUT/racecheck.log" | head -3
echo "racecheck $((SECONDS-t0)) s"
timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_specialized_gpu.py > "$OUT/pytest_ws.log" 2>&1
tail -1 "$OUT/pytest_ws.log"
for cfg in "TCONV_GATHER_SPECIALIZED=" "TCONV_GATHER_SPECIALIZED=0"; do
  (cd scripts && env $cfg timeout 100 python3 quick_timing.py l2_61_convt3d_relu_groupnorm real_dcgan_up \
    real_hifigan_up fam06_convt2d_k3x5_128x256 --precision tf32 --runs 10 --warmup 2 \
    2>&1 | grep -v Warn | sed "s/^/${cfg#TCONV_GATHER_} /") | tee -a "$OUT/ab.log"
done
echo "done $((SECONDS-t0)) s"
