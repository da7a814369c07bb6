#!/usr/bin/env bash
# Run 141 (session 20): A/B of an L2 bulk prefetch (cp.async.bulk.prefetch.L2, one per channel and stage, 2 stages
# ahead of the register loads) in the forward and grad_input strip kernels (P; TCONV_AB_NOPF=1 for N = 37b90ae).
# Why: run 139's ncu of the forward put long-scoreboard stalls first (1.70 per issue): x is read from DRAM once
# (328 MB), by the first of the 16 M-tile blocks sharing a position tile, and the register loads are issued one
# stage (~1 us) before use. Prediction: forward 5-15 % faster; grad_input less (6 stages deep, 128 stages a block).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }
echo "build $((SECONDS-t0)) s"
for v in P N P N; do
  if [ $v = N ]; then export TCONV_AB_NOPF=1; else unset TCONV_AB_NOPF; fi
  echo "== $v"; python3 scripts/kernel_breakdown.py real_hifigan_up --precision tf32 --iters 5 2>&1 | grep -E "strip_forward_kernel|strip_grad_input|ms of kernels"
done 2>&1 | tee $OUT/ab.txt
unset TCONV_AB_NOPF
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip or hifigan" > $OUT/pytest.log 2>&1; tail -12 $OUT/pytest.log | grep -E "passed|failed|Error" | tail -4
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 90 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -2 $OUT/racecheck.log
p_ms=$(awk '/== P/{f=1;next} /== N/{f=0} f && /ms of kernels/{print $(NF-5); exit}' $OUT/ab.txt)
n_ms=$(awk '/== N/{f=1;next} /== P/{f=0} f && /ms of kernels/{print $(NF-5); exit}' $OUT/ab.txt)
echo "total P $p_ms N $n_ms"
if awk "BEGIN{exit !($p_ms < $n_ms)}"; then
  TCONV_COMMIT=${VARIANT_SHA:-unknown} timeout $((585-SECONDS)) python3 -m tconv bench real_hifigan_up --precision tf32 \
    --no-compile --runs 20 --warmup 3 --out $OUT/b > $OUT/bench.log 2>&1; tail -4 $OUT/bench.log
fi
echo "done $((SECONDS-t0)) s"
