#!/usr/bin/env bash
# Prepared in session 29 for the next session's first call (~420 s on a fresh machine): the measurements that session
# 29's misses lack, none of which needs a code change.
# 1. Breakdowns (TF32, kernel time per fwd+bwd): L1-71 with the flat shifted-x map (run 186 gained 0.27 of the
#    predicted 0.7 ms: where is its grad_weight now?), L1-68 (the H200's split of 24.0 ms; run 184's was the H100's)
#    and DCGAN (the one TF32 row below cuDNN-benchmark, 0.85x).
# 2. ncu source counters of shifted_x<5> on L1-68 (run 187 had the stall totals only: wait / barrier / long
#    scoreboard about equal). Read offline with scripts/ncu_source_summary.py: which warp role (producer lane,
#    rounders, consumers) holds the samples, and where.
# PART=2 (~400 s warm): applies logs/session29-unit_stride_tap_pairs.patch (the unit-stride form's 32-channel tiles as
#   two W taps of 32 channels in A's 64 rows; switch TCONV_UNIT_STRIDE_TAP_PAIRS, default off in the patch) and
#   rebuilds; the unit-stride tests with the switch on and off; memcheck and racecheck of sanitize_small.py with it
#   on (its unit-stride grad_input is 40 -> 20 channels); the A/B 0 / 1 on L1-68 (grad_input 64 -> 32 channels, T 5)
#   and fam02 (forward 16 channels at T 7, grad_input 32 at T 7), TF32 fwd+bwd. Predicted: L1-68's grad_input
#   8.8 -> 7.3-8.0 ms (H100 figures; shared-memory bytes per useful FLOP 1.67x lower, MMA work 1.2x higher).
# PART=3 (~250 s warm, after PART=2): scripts/unit_stride_sweep.py with the switch 0 and 1 on the 32-channel shapes
#   (L1-68, L1-71, fam02): the unit-stride form forced against the gather GEMMs, forward and grad_input. L1-71
#   (K 288) lost 0.87x / 0.83x to the gathers with the x-as-A tiles (run 159); whether the pairs form moves that.
# Usage: COMMIT=<sha from the development machine> PART=1|2|3 bash benchmarks/results/logs/session29-next_run.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
L=benchmarks/results/logs
if [ "${PART:?pass PART=1, 2 or 3}" != 1 ] && ! grep -q unit_stride_tap_pairs tconv/csrc/conv_transpose_igemm.cu; then
  git apply $L/session29-unit_stride_tap_pairs.patch 2>/dev/null || patch -p1 < $L/session29-unit_stride_tap_pairs.patch \
    || { echo "the tap-pairs patch did not apply"; exit 1; }
fi
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv digest
if [ "$PART" = 1 ]; then
  for stem in l1_71_convt2d_asym_input_square_kernel l1_68_convt3d_square_input_asym_kernel real_dcgan_up; do
    (cd scripts && timeout 60 python3 kernel_breakdown.py $stem --precision tf32 --iters 3) > $OUT/breakdown_$stem.log 2>&1
    echo "breakdown $stem rc $?"; grep -E "^==|ms  x" $OUT/breakdown_$stem.log | cut -c1-160 | head -8
  done
  echo "t $((SECONDS-t0)) s"
  OUT=$OUT KERNEL=grad_weight_wgmma_shifted_x CASES="l1_68_tf32:l1_68_convt3d_square_input_asym_kernel:tf32" \
    timeout $((560 - (SECONDS - t0))) bash scripts/ncu_source.sh 2>&1 | cut -c1-200
  gzip -f $OUT/src_*.csv 2>/dev/null
  python3 scripts/ncu_source_summary.py $OUT/src_l1_68_tf32.csv.gz --top 25 > $OUT/src_summary.txt 2>&1
  head -40 $OUT/src_summary.txt | cut -c1-200
elif [ "$PART" = 3 ]; then
  for pairs in 0 1; do
    TCONV_UNIT_STRIDE_TAP_PAIRS=$pairs timeout 120 python3 scripts/unit_stride_sweep.py --runs 10 \
      --only l1_68 l1_71 fam02 --json $OUT/unit_stride_sweep_pairs$pairs.json > $OUT/unit_stride_sweep_pairs$pairs.log 2>&1
    echo "sweep, tap pairs $pairs: rc $?"; tail -12 $OUT/unit_stride_sweep_pairs$pairs.log | cut -c1-200
  done
else
  for pairs in 1 0; do
    TCONV_UNIT_STRIDE_TAP_PAIRS=$pairs timeout 90 python3 -m pytest -q -rfE -p no:cacheprovider \
      tests/test_conv_transpose_gpu.py -k "unit_stride or tap_pairs" >> $OUT/pytest_tap_pairs.log 2>&1
    echo "unit-stride tests, tap pairs $pairs: rc $?"; tail -1 $OUT/pytest_tap_pairs.log
  done
  grep -E "failed|Error|assert" $OUT/pytest_tap_pairs.log | head -6
  for tool in memcheck racecheck; do
    TCONV_UNIT_STRIDE_TAP_PAIRS=1 timeout 60 compute-sanitizer --tool $tool --kernel-name kns=unit_stride \
      python3 tests/sanitize_small.py >> $OUT/sanitize_tap_pairs.log 2>&1
    echo "$tool (unit-stride kernels, tap pairs on) rc $?"; tail -1 $OUT/sanitize_tap_pairs.log
  done
  mkdir -p /tmp/ab
  for stem in l1_68_convt3d_square_input_asym_kernel fam02_convt3d_k3x5x7_16x32x64; do
    OUT=/tmp/ab/$stem SWITCH=TCONV_UNIT_STRIDE_TAP_PAIRS VALUES="0 1" ROUNDS=2 PRECISIONS="tf32" \
      timeout 100 bash scripts/device_switch_ab.sh $stem > /tmp/ab/ab_$stem.log 2>&1
    echo "ab $stem rc $?"; grep -v "^ " /tmp/ab/ab_$stem.log | cut -c1-200
  done
  tar czf $OUT/ab_json.tgz -C /tmp/ab . 2>/dev/null
  TCONV_UNIT_STRIDE_TAP_PAIRS=1 bash -c "cd scripts && timeout 40 python3 kernel_breakdown.py \
    l1_68_convt3d_square_input_asym_kernel --precision tf32 --iters 3" > $OUT/breakdown_tap_pairs.log 2>&1
  grep -E "^==|ms  x" $OUT/breakdown_tap_pairs.log | cut -c1-160 | head -8
fi
echo "done $((SECONDS-t0)) s"
