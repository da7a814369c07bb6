#!/usr/bin/env bash
# Run 162 (session 23): diagnostics at c05b9ed (kernels of d1a5c19) to aim the next changes. Per-kernel times of
# forward+backward for the rows below a target (DCGAN 0.75x eager fwd+bwd, fam07 0.93x and fam13 0.93x cuDNN-bench,
# L1-68, L2-61), tconv and the original Model (cuDNN's split); then the SASS source counters of L1-68's unit-stride
# forward with the weights-as-A form (new since run 156's profile).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
cd "$(dirname "$0")"
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
rows="real_dcgan_up fam07_convt3d_k3_96x96x96 fam13_convt2d_k3_s5_p1_d2_64x128 l1_68_convt3d_square_input_asym_kernel l2_61_convt3d_relu_groupnorm"
timeout 150 python3 scripts/kernel_breakdown.py $rows --precision tf32 --iters 3 --json $OUT/breakdown_tconv.json > $OUT/breakdown.log 2>&1
timeout 100 python3 scripts/kernel_breakdown.py $rows --precision tf32 --iters 3 --model original --json $OUT/breakdown_original.json >> $OUT/breakdown.log 2>&1
cat $OUT/breakdown.log | cut -c1-160
echo "breakdown $((SECONDS-t0)) s"
left=$((575 - SECONDS + t0))
if [ $left -gt 60 ]; then
  timeout $left ncu --clock-control none -k "regex:unit_stride_forward" --launch-skip 0 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section InstructionStats --import-source no \
    --page source --print-source sass --csv \
    python3 scripts/quick_timing.py l1_68_convt3d_square_input_asym_kernel --precision tf32 --runs 1 --warmup 1 \
    2> $OUT/src_l1_68.err | gzip > $OUT/src_l1_68.csv.gz
  tail -2 $OUT/src_l1_68.err
fi
echo "done $((SECONDS-t0)) s"
