#!/usr/bin/env bash
# Run 251: the session's final state, checked where it touches the defaults: L2-61 verified in exact fp32 with the full
# report (run 246's single grad_params failure), then `tconv bench` of L2-61 in exact fp32 and of the unit-stride
# forward's two biggest users, L1-68 and fam06, in TF32 (their kernels' registers are as at the session's start; the
# arguments struct grew by the statistics fields).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 90 python3 -m tconv verify problems/l2_61_convt3d_relu_groupnorm.py --precision fp32 --trials 3 \
  > $OUT/verify_l2_61_fp32.log 2>&1; echo "verify fp32 rc $?"; grep -E "FAIL|RESULT" $OUT/verify_l2_61_fp32.log
mkdir -p /tmp/b
timeout 80 python3 -m tconv bench l2_61_convt3d_relu_groupnorm --precision fp32 --no-compile --runs 20 --warmup 3 \
  --out /tmp/b > /tmp/b/bench_fp32.log 2>&1; echo "bench fp32 rc $?"; grep -E "^\[" /tmp/b/bench_fp32.log | cut -c1-220
timeout 150 python3 -m tconv bench l1_68_convt3d_square_input_asym_kernel fam06_convt2d_k3x5_128x256 --precision tf32 \
  --no-compile --runs 20 --warmup 3 --out /tmp/b > /tmp/b/bench_tf32.log 2>&1; echo "bench tf32 rc $?"
grep -E "^\[" /tmp/b/bench_tf32.log | cut -c1-220
cp /tmp/b/*.json /tmp/b/*.log $OUT/ 2>/dev/null
echo "done $((SECONDS-t0)) s"
