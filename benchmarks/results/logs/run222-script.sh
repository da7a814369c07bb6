#!/usr/bin/env bash
# Run 222 (session 33, the last of the device budget): the shifted-x grad_weight's fp32 ring at unit 16 with 8
# stages instead of 6 (TCONV_GRAD_WEIGHT_SHIFTED_X_FP32_STAGES=8, a second instantiation; prepared in session 33,
# not landed). Run 216 had unit 32 (4 stages) lose to 16 (6 stages) on TF32 L1-68 with or without the half skip,
# so the ring depth is the suspect. Predicted: L1-68 TF32 fwd+bwd 21.6 -> 21.2-21.6 ms on an H100 (a deeper ring
# helps only if TMA latency shows; 6 stages already cover ~5 units of work).
# Then fam01 and fam04 in TF32 through `tconv bench`: run 219's cuDNN-benchmark child ran out of memory there, and
# bench.py now empties the parent's cache before it (7bf0c66).
# Usage: COMMIT=<sha> bash run222.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
TCONV_GRAD_WEIGHT_SHIFTED_X_FP32_STAGES=8 timeout 45 python3 -m pytest -q -rfE -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py -k "shifted_x and not fp16 and not bf16" > $OUT/pytest_stages8.log 2>&1
echo "shifted-x tests (fp32 data) with 8 stages: rc $? ($((SECONDS-t0)) s)"
grep -E "passed|failed|Error|assert" $OUT/pytest_stages8.log | tail -4
OUT=$OUT SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_FP32_STAGES VALUES="0 8" ROUNDS=2 PRECISIONS="tf32" timeout 90 \
  bash scripts/device_switch_ab.sh l1_68_convt3d_square_input_asym_kernel > $OUT/switch_stages.log 2>&1
echo "A/B stages rc $? ($((SECONDS-t0)) s)"; grep -E "fwd" $OUT/switch_stages.log | cut -c1-175
mkdir -p /tmp/b
timeout $((560 - (SECONDS - t0))) python3 -m tconv bench fam01_convt2d_k3_1024x1024 fam04_convt1d_k3_65536 \
  --precision tf32 --no-compile --runs 20 --warmup 3 --out /tmp/b > $OUT/bench.log 2>&1
echo "bench rc $?"; cp /tmp/b/bench_*.json $OUT/ 2>/dev/null
grep -E "^\[" $OUT/bench.log | cut -c1-220
python3 - <<'PY'
import glob, json
for f in glob.glob("/tmp/b/bench_*.json"):
    for r in json.load(open(f))["rows"]:
        print(r["problem"], "cudnn_bench_fwd_ms", r.get("cudnn_bench_fwd_ms"), "error", r.get("cudnn_bench_error"))
PY
echo "done $((SECONDS-t0)) s"
