#!/usr/bin/env bash
# Run 239: 393aea5's rule (exact fp32 grad_input phase-split at 1D W stride >= 4) on a GPU: the whole GPU test
# directory, HiFi-GAN's exact fp32 row through `tconv bench`, and the W-tap window on the exact fp32 forwards with
# two W taps per phase (run 237: HiFi-GAN 11.02 -> 10.06 ms with it; "auto" takes it at 3+ taps only, from TF32
# timings where two taps lost).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 300 python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
echo "GPU tests rc $? ($((SECONDS-t0)) s)"; tail -3 $OUT/pytest.log; grep -E "^FAILED|^ERROR" $OUT/pytest.log | head -20
timeout 90 python3 scripts/quick_timing.py real_hifigan_up real_dcgan_up fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 \
  --precision fp32 --algorithm auto igemm_window auto igemm_window --runs 10 --warmup 2 2>&1 | grep -v -i warn \
  | tee $OUT/window_exact.log
echo "window A/B ($((SECONDS-t0)) s)"
mkdir -p /tmp/b && timeout 120 python3 -m tconv bench real_hifigan_up --precision fp32 --no-compile --runs 20 --warmup 3 \
  --out /tmp/b > /tmp/b/bench.log 2>&1; echo "bench rc $?"; cp /tmp/b/bench_*.json /tmp/b/bench.log $OUT/
grep -E "^\[" /tmp/b/bench.log | cut -c1-220
echo "done $((SECONDS-t0)) s"
