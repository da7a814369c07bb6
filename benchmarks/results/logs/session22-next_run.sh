#!/usr/bin/env bash
# Prepared in session 22 for the next session's first device call (not run): the four session-22 patches applied
# together (they touch different kernels or sit behind a switch, so one build attributes them against runs
# 156-158), build, the strip GPU tests (with the new unit-stride grad_input and weights-as-A cases), memcheck,
# racecheck, then unit_stride_sweep.py (now also grad_input: the unit-stride forward of grad_output against the
# gather GEMM) with and without the weights-as-A form, as far as the time goes. The whole GPU directory and a bench
# are for the call after it.
#   decode_row:             32-bit row decode shared by the gather GEMMs and the unit-stride forward (expect the
#                           short-K GEMM forwards, L1-71 1.08 / fam01 4.83 / fam04 3.33 ms in run 156, to gain)
#   uniform_slot:           the pipeline slot through a shuffle, hoping for uniform-register descriptors (run 156's
#                           SASS: ~8 instructions per HGMMA; L1-68 forward 6.43 ms)
#   unit_stride_grad_input: grad_input at stride 1 as the unit-stride forward of grad_output (flipped weights)
#   unit_stride_weights_as_a: 64-channel tiles with the weights as wgmma's A and x as B (m64n128k8), stores staged
#                           through shared memory; TCONV_UNIT_STRIDE_WEIGHTS_AS_A=0 turns it off in the same build
# Run from the repository root on the device: bash benchmarks/results/logs/session22-next_run.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
t0=$SECONDS
for p in decode_row uniform_slot unit_stride_grad_input unit_stride_weights_as_a; do
  git apply "benchmarks/results/logs/session22-$p.patch" 2>/dev/null || patch -p1 < "benchmarks/results/logs/session22-$p.patch" || exit 1
done
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip or unit_stride or hifigan" > $OUT/pytest.log 2>&1; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -1 $OUT/racecheck.log
echo "correctness done $((SECONDS-t0)) s"
# Timing as far as the call's 600 s go (the sweep writes its JSON at the end; the log line by line).
left() { echo $((585 - SECONDS + t0)); }
timeout $(left) python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep.json > $OUT/sweep.log 2>&1
echo "--- TCONV_UNIT_STRIDE_WEIGHTS_AS_A=0" >> $OUT/sweep.log
[ $(left) -gt 20 ] && TCONV_UNIT_STRIDE_WEIGHTS_AS_A=0 timeout $(left) python3 scripts/unit_stride_sweep.py --runs 10 \
  --json $OUT/sweep_x_as_a.json >> $OUT/sweep.log 2>&1
cat $OUT/sweep.log
echo "done $((SECONDS-t0)) s"
