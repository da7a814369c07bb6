#!/usr/bin/env bash
# Prepared in session 23 for the next session's first device call (not run): session23-persistent_dynamic.patch =
# run 164's persistent unit-stride blocks with each next row tile taken from a per-channel-tile counter (zeroed by a
# memset per launch, in the workspace after the packed weights) instead of the grid's stride. Run 164 had the fixed
# assignment level to 5.5 % slower (fam02) against one tile a block; the hypothesis is that the tiles' different
# costs lost the hardware's dynamic scheduling. Build, the strip/unit-stride tests (with the patch's many-tile cases),
# memcheck and racecheck (its persistent calls), then the sweep persistent and not (TCONV_UNIT_STRIDE_PERSISTENT=0).
# Land only if the sweep shows the persistent form ahead on L1-68 and not behind elsewhere.
# Run from the repository root on the device: bash benchmarks/results/logs/session23-next_run.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
t0=$SECONDS
git apply benchmarks/results/logs/session23-persistent_dynamic.patch 2>/dev/null || patch -p1 < benchmarks/results/logs/session23-persistent_dynamic.patch || exit 1
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip or unit_stride or hifigan" > $OUT/pytest.log 2>&1; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
timeout 60 python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep.json > $OUT/sweep.log 2>&1
echo "--- TCONV_UNIT_STRIDE_PERSISTENT=0" >> $OUT/sweep.log
TCONV_UNIT_STRIDE_PERSISTENT=0 timeout 60 python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep_off.json >> $OUT/sweep.log 2>&1
cut -c1-200 $OUT/sweep.log
timeout 70 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 130 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -1 $OUT/racecheck.log
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv >> $OUT/sweep.log; echo "done $((SECONDS-t0)) s"
