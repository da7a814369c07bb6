#!/usr/bin/env bash
# Run 179 (session 26): the final kernels (the rows grad_weight kernel by TMA, two units per stage by default).
# Build; the whole GPU test directory; memcheck and racecheck of sanitize_small.py; tconv bench (TF32) of the two
# suite shapes the rows kernel takes, DCGAN and the VAE.
# Usage: COMMIT=<sha from the development machine> bash run179.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv digest
timeout 250 python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
echo "pytest rc $?"; grep -E "passed|failed|Error" $OUT/pytest.log | tail -6
echo "t $((SECONDS-t0)) s"
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; echo "racecheck rc $?"; tail -1 $OUT/racecheck.log
echo "t $((SECONDS-t0)) s"
mkdir -p /tmp/bench_tf32
python3 -m tconv bench real_dcgan_up real_vae_up --precision tf32 --no-compile --runs 20 --warmup 3 \
  --out /tmp/bench_tf32 > $OUT/bench.log 2>&1
echo "bench rc $?"; cp /tmp/bench_tf32/bench_*.json $OUT/; tail -8 $OUT/bench.log | cut -c1-220
echo "done $((SECONDS-t0)) s"
