#!/usr/bin/env bash
# Run 104 (session 16): b216b0b. Build, the specialized tile's GPU tests, auto vs plain A/B, ncu of the L2-61 forward
# gather (specialized vs plain), then the TF32 suite (resumed in the next call).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1
export TCONV_COMMIT=b216b0b6de2272165ba7c71043c3be2cae1dc3c8
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1
t0=$SECONDS
python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_specialized_gpu.py > "$OUT/pytest_ws.log" 2>&1
tail -2 "$OUT/pytest_ws.log"
for cfg in "TCONV_GATHER_SPECIALIZED=" "TCONV_GATHER_SPECIALIZED=0"; do
  (cd scripts && env $cfg timeout 100 python3 quick_timing.py l2_61_convt3d_relu_groupnorm real_dcgan_up \
    real_hifigan_up fam06_convt2d_k3x5_128x256 real_vae_up real_unet3d_up --precision tf32 --runs 10 --warmup 2 \
    2>&1 | grep -v Warn | sed "s/^/${cfg#TCONV_GATHER_} /") | tee -a "$OUT/ab.log"
done
echo "ab $((SECONDS-t0)) s"
for cfg in 1 0; do
  TCONV_GATHER_SPECIALIZED=$cfg OUT="/tmp/ncu$cfg" CASES="l2_61_tf32:l2_61_convt3d_relu_groupnorm:tf32" \
    bash scripts/ncu_stalls.sh 2>&1 | sed "s/^/specialized=$cfg /" | tee -a "$OUT/ncu.log"
done
echo "ncu $((SECONDS-t0)) s"
python3 -m tconv bench --suite all --precision tf32 --no-compile --runs 20 --warmup 3 \
  --time-budget $((560-SECONDS-60)) --out "$OUT/b" > "$OUT/bench.log" 2>&1
tail -5 "$OUT/bench.log"; ls "$OUT/b"
echo "done $((SECONDS-t0)) s"
