#!/usr/bin/env bash
# Prepared in session 28 for the next session's calls. Run the parts back to back so the machine stays warm: PART=2
# reuses PART=1's build (/tmp/tconv_build); PART=3 applies a patch and rebuilds (the changed sources only). A cold
# start rebuilds everything (~200 s).
# PART=1 (~540 s): build; the whole GPU test directory (run 179: 177 s), which no session-28 kernel has been through
#   (runs 182-184 ran their own tests only); memcheck of sanitize_small.py; racecheck and synccheck of the wgmma
#   grad_weight kernels.
# PART=2 (~350 s warm): same-build A/Bs on L1-68 (TF32 fwd+bwd):
#   TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE 1 / 0 - run 183 had it level while the rounders were the limit;
#   TCONV_GRAD_WEIGHT_SHIFTED_X_WIDE 0 / 1 - taps 0-3 as one m64n128k8 instead of two m64n64k8 (default off, never
#   run: if it wins, run the shifted-x tests with it on before making it the default);
#   then tconv bench (TF32) of L1-68, DCGAN and the VAE (eager, cuDNN-benchmark and tconv in one process), and ncu
#   of shifted_x<5> on L1-68.
# PART=3 (~330 s warm): applies logs/session28-shifted_x_flat_dy.patch (grad_output rows of no multiple of 16 bytes
#   through a flat tensor map: L1-71, W_out 1026; switch TCONV_GRAD_WEIGHT_SHIFTED_X_FLAT_DY, default off in the
#   patch) and rebuilds; the shifted-x tests with the switch on and off (s7/s8 and sanitize_small's last call take
#   the flat map when on); memcheck and racecheck of the shifted-x kernels with it on; the A/B 0 / 1 on L1-71 (its
#   grad_weight runs tconv_igemm_grad_weight_tf32_kernel<.., 1, 3, 2> at 1.63 ms, run 181). The patch also changes the
#   default path (the consumers' cursor, masked fragments): the tests with the switch off check that.
# Usage: COMMIT=<sha from the development machine> PART=1 bash benchmarks/results/logs/session28-next_run.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
L=benchmarks/results/logs
if [ "${PART:?pass PART=1, 2 or 3}" = 3 ] && ! grep -q flat_dy_row tconv/csrc/conv_transpose_igemm.cu; then
  git apply $L/session28-shifted_x_flat_dy.patch 2>/dev/null || patch -p1 < $L/session28-shifted_x_flat_dy.patch \
    || { echo "the flat patch did not apply"; exit 1; }
fi
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv digest
L1_68=l1_68_convt3d_square_input_asym_kernel
mkdir -p /tmp/ab  # the A/B logs travel in ab_json.tgz with their JSON rows (8 files come back at most)
if [ "$PART" = 1 ]; then
  timeout 230 python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
  echo "pytest rc $?"; grep -E "passed|failed|Error" $OUT/pytest.log | tail -6
  echo "t $((SECONDS-t0)) s"
  timeout 70 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1
  echo "memcheck rc $?"; tail -1 $OUT/memcheck.log
  for tool in racecheck synccheck; do
    timeout 45 compute-sanitizer --tool $tool --kernel-name kns=grad_weight_wgmma python3 tests/sanitize_small.py \
      > $OUT/$tool.log 2>&1
    echo "$tool (grad_weight_wgmma kernels) rc $?"; tail -1 $OUT/$tool.log
  done
elif [ "$PART" = 2 ]; then
  OUT=/tmp/ab/slide SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" \
    timeout 100 bash scripts/device_switch_ab.sh $L1_68 > /tmp/ab/ab_slide.log 2>&1
  echo "ab slide rc $?"; grep -v "^ " /tmp/ab/ab_slide.log | cut -c1-200
  OUT=/tmp/ab/wide SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_WIDE VALUES="0 1" ROUNDS=2 PRECISIONS="tf32" \
    timeout 100 bash scripts/device_switch_ab.sh $L1_68 > /tmp/ab/ab_wide.log 2>&1
  echo "ab wide rc $?"; grep -v "^ " /tmp/ab/ab_wide.log | cut -c1-200
  tar czf $OUT/ab_json.tgz -C /tmp/ab . 2>/dev/null
  echo "t $((SECONDS-t0)) s"
  mkdir -p /tmp/bench_tf32
  timeout 150 python3 -m tconv bench $L1_68 real_dcgan_up real_vae_up --precision tf32 --no-compile --runs 20 \
    --warmup 3 --out /tmp/bench_tf32 > $OUT/bench.log 2>&1
  echo "bench rc $?"; cp /tmp/bench_tf32/bench_*.json $OUT/; tail -8 $OUT/bench.log | cut -c1-220
  OUT=$OUT KERNEL=grad_weight_wgmma CASES="l1_68_tf32:$L1_68:tf32" \
    timeout $((585 - (SECONDS - t0))) bash scripts/ncu_stalls.sh 2>&1 | cut -c1-200
else
  for flat in 1 0; do
    TCONV_GRAD_WEIGHT_SHIFTED_X_FLAT_DY=$flat timeout 60 python3 -m pytest -q -rfE -p no:cacheprovider \
      tests/test_conv_transpose_gpu.py -k "shifted_x" >> $OUT/pytest_flat.log 2>&1
    echo "shifted-x tests, flat map switch $flat: rc $?"; tail -1 $OUT/pytest_flat.log
  done
  grep -E "failed|Error|assert" $OUT/pytest_flat.log | head -6
  for tool in memcheck racecheck; do
    TCONV_GRAD_WEIGHT_SHIFTED_X_FLAT_DY=1 timeout 40 compute-sanitizer --tool $tool --kernel-name kns=shifted_x \
      python3 tests/sanitize_small.py >> $OUT/sanitize_flat.log 2>&1
    echo "$tool (shifted-x, flat on) rc $?"; tail -1 $OUT/sanitize_flat.log
  done
  OUT=/tmp/ab/flat SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_FLAT_DY VALUES="0 1" ROUNDS=2 PRECISIONS="tf32" \
    timeout 60 bash scripts/device_switch_ab.sh l1_71_convt2d_asym_input_square_kernel > /tmp/ab/ab_flat.log 2>&1
  echo "ab flat rc $?"; grep -v "^ " /tmp/ab/ab_flat.log | cut -c1-200
  tar czf $OUT/ab_json.tgz -C /tmp/ab . 2>/dev/null
fi
echo "done $((SECONDS-t0)) s"
