#!/usr/bin/env bash
# Run 103 (session 16): warp-specialized gather tile, producer count (128 / 256) x stages (6 / 4) against the plain tile.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
python3 -m pip install -q --no-deps --no-build-isolation -e . > "$OUT/pip.log" 2>&1
t0=$SECONDS
python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_specialized_gpu.py > "$OUT/pytest_ws.log" 2>&1
tail -3 "$OUT/pytest_ws.log"
for round in 1 2; do
  for cfg in "TCONV_GATHER_SPECIALIZED=1" "TCONV_GATHER_SPECIALIZED=1 TCONV_GATHER_MAX_STAGES=4" \
             "TCONV_GATHER_SPECIALIZED=2" "TCONV_GATHER_SPECIALIZED=2 TCONV_GATHER_MAX_STAGES=4" \
             "TCONV_GATHER_SPECIALIZED=0"; do
    tag=$(echo "$cfg" | sed 's/TCONV_GATHER_//g; s/ /,/g')
    (cd scripts && env $cfg timeout 100 python3 quick_timing.py l2_61_convt3d_relu_groupnorm real_dcgan_up \
      real_hifigan_up fam06_convt2d_k3x5_128x256 real_vae_up real_unet3d_up --precision tf32 --runs 10 --warmup 2 \
      2>&1 | grep -v Warn | sed "s/^/$tag /") | tee -a "$OUT/ab.log"
  done
  echo "round $round $((SECONDS-t0)) s"
done
timeout $((580-SECONDS)) python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "tf32" > "$OUT/pytest_tf32.log" 2>&1
tail -3 "$OUT/pytest_tf32.log"
echo "done $((SECONDS-t0)) s"
