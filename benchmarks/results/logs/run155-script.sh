#!/usr/bin/env bash
# Run 155 (session 22): wgmma descriptors as 32-bit words on a warp-uniform base (WgmmaDescriptor,
# uniform_warpgroup) in the four strip kernels; run 154's SASS counters had ~20 instructions of 64-bit descriptor
# arithmetic per HGMMA in the unit-stride forward. Build; the unit-stride kernel's SASS (one instance); the strip GPU
# tests; unit_stride_sweep.py with and without x by 16-byte pieces (run 154's patch, still applied); HiFi-GAN and
# L1-68 forward+backward (all strip kernels); memcheck, racecheck; SASS counters of L1-68's unit-stride forward.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
obj=$(find /tmp/tconv_build -name "conv_transpose_igemm*.o" | head -1)
cuobjdump -sass "$obj" 2>/dev/null | awk '/Function : .*unit_stride_forward_kernelILi6ELi2ELi2ELi64ELi5ELi16ELb0/{p=1} p&&/Function : /&&!/unit_stride_forward_kernelILi6ELi2ELi2ELi64ELi5ELi16ELb0/{p=0} p' \
  | gzip > $OUT/sass_unit_stride_64_5.txt.gz
zcat $OUT/sass_unit_stride_64_5.txt.gz | grep -cE "HGMMA|R2UR" ; zcat $OUT/sass_unit_stride_64_5.txt.gz | wc -l
timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "strip or unit_stride or hifigan" > $OUT/pytest.log 2>&1; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
echo "tests $((SECONDS-t0)) s"
timeout 60 python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep_vector.json > $OUT/sweep.log 2>&1
echo "--- TCONV_UNIT_STRIDE_VECTOR_X=0" >> $OUT/sweep.log
TCONV_UNIT_STRIDE_VECTOR_X=0 timeout 60 python3 scripts/unit_stride_sweep.py --runs 10 --json $OUT/sweep_scalar.json >> $OUT/sweep.log 2>&1
cat $OUT/sweep.log
TCONV_UNIT_STRIDE_VECTOR_X=0 timeout 90 python3 scripts/quick_timing.py real_hifigan_up l1_68_convt3d_square_input_asym_kernel --precision tf32 --runs 10 2>&1 | grep -v Warn | tail -3
timeout 60 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
timeout 120 compute-sanitizer --tool racecheck python3 tests/sanitize_small.py > $OUT/racecheck.log 2>&1; tail -1 $OUT/racecheck.log
echo "sanitizers $((SECONDS-t0)) s"
left=$((580 - SECONDS + t0))
if [ $left -gt 60 ]; then
  TCONV_UNIT_STRIDE_VECTOR_X=0 timeout $left ncu --clock-control none -k "regex:unit_stride_forward" --launch-skip 0 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section InstructionStats --import-source no \
    --page source --print-source sass --csv \
    python3 scripts/quick_timing.py l1_68_convt3d_square_input_asym_kernel --precision tf32 --runs 1 --warmup 1 \
    2> $OUT/src_l1_68.err | gzip > $OUT/src_l1_68.csv.gz
  tail -2 $OUT/src_l1_68.err
fi
echo "done $((SECONDS-t0)) s"
