#!/usr/bin/env bash
# Prepared in session 28 for the next session's first two calls; run PART=2 right after PART=1 so the machine is
# still warm and the build (/tmp/tconv_build) is reused (a cold PART=2 rebuilds: ~200 s more).
# PART=1 (~540 s): build; the whole GPU test directory (run 179: 177 s), which no session-28 kernel has been through
#   (runs 182-184 ran their own tests only); memcheck of sanitize_small.py; racecheck and synccheck of the wgmma
#   grad_weight kernels.
# PART=2 (~350 s warm): same-build A/Bs on L1-68 (TF32 fwd+bwd):
#   TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE 1 / 0 - run 183 had it level while the rounders were the limit;
#   TCONV_GRAD_WEIGHT_SHIFTED_X_WIDE 0 / 1 - taps 0-3 as one m64n128k8 instead of two m64n64k8 (default off, never
#   run: if it wins, run the shifted-x tests with it on before making it the default);
#   then tconv bench (TF32) of L1-68, DCGAN and the VAE (eager, cuDNN-benchmark and tconv in one process), and ncu
#   of shifted_x<5> on L1-68.
# Usage: COMMIT=<sha from the development machine> PART=1 bash benchmarks/results/logs/session28-next_run.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv digest
if [ "${PART:?pass PART=1 or PART=2}" = 1 ]; then
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
else
  L1_68=l1_68_convt3d_square_input_asym_kernel
  OUT=/tmp/ab/slide SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" \
    timeout 100 bash scripts/device_switch_ab.sh $L1_68 > $OUT/ab_slide.log 2>&1
  echo "ab slide rc $?"; grep -v "^ " $OUT/ab_slide.log | cut -c1-200
  OUT=/tmp/ab/wide SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_WIDE VALUES="0 1" ROUNDS=2 PRECISIONS="tf32" \
    timeout 100 bash scripts/device_switch_ab.sh $L1_68 > $OUT/ab_wide.log 2>&1
  echo "ab wide rc $?"; grep -v "^ " $OUT/ab_wide.log | cut -c1-200
  tar czf $OUT/ab_json.tgz -C /tmp/ab . 2>/dev/null
  echo "t $((SECONDS-t0)) s"
  mkdir -p /tmp/bench_tf32
  timeout 150 python3 -m tconv bench $L1_68 real_dcgan_up real_vae_up --precision tf32 --no-compile --runs 20 \
    --warmup 3 --out /tmp/bench_tf32 > $OUT/bench.log 2>&1
  echo "bench rc $?"; cp /tmp/bench_tf32/bench_*.json $OUT/; tail -8 $OUT/bench.log | cut -c1-220
  OUT=$OUT KERNEL=grad_weight_wgmma CASES="l1_68_tf32:$L1_68:tf32" \
    timeout $((585 - (SECONDS - t0))) bash scripts/ncu_stalls.sh 2>&1 | cut -c1-200
fi
echo "done $((SECONDS-t0)) s"
