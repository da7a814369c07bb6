#!/usr/bin/env bash
# Run 134 (session 19): the strip grad_weight kernel at 256 x 128 tiles (x re-read 16 times, not 32: 16.7 vs 20.7
# KB of L2 per stage). Build, the strip GPU tests (incl. the profiler check), memcheck/racecheck, HiFi-GAN's kernels.
# Then `tconv bench real_hifigan_up` (TF32) on whichever form is faster: this one if its grad_weight kernel beats
# run 133's 5.13 ms, else run 133's (a3f0419, carried under alt/, rebuilt).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
build() {
  python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
  python3 -c "import tconv; tconv._build.load()" > $OUT/build.log 2>&1 || { tail -40 $OUT/build.log; exit 1; }
  echo "build $((SECONDS-t0)) s"
}
build
timeout 150 python3 -m pytest -q -x -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip" > $OUT/pytest.log 2>&1; tail -4 $OUT/pytest.log
python3 scripts/kernel_breakdown.py real_hifigan_up --precision tf32 --iters 3 2>&1 | grep -v Warn | head -5 | tee $OUT/breakdown.txt
ms=$(grep strip_grad_weight $OUT/breakdown.txt | awk '{print $1}')
commit=$VARIANT_SHA
if awk "BEGIN{exit !($ms < 5.0)}"; then
  timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
  timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -2 $OUT/racecheck.log
else
  echo "256 x 128 not faster ($ms ms): benching a3f0419"
  cp alt/conv_transpose_igemm.cu tconv/csrc/ && cp alt/igemm_config.h tconv/csrc/
  commit=$BASE_SHA
  build
  python3 scripts/kernel_breakdown.py real_hifigan_up --precision tf32 --iters 3 2>&1 | grep -v Warn | head -3
fi
TCONV_COMMIT=$commit timeout $((570-SECONDS)) python3 -m tconv bench real_hifigan_up --precision tf32 --no-compile \
  --runs 20 --warmup 3 --out $OUT/b > $OUT/bench.log 2>&1; tail -8 $OUT/bench.log
echo "done $((SECONDS-t0)) s"
