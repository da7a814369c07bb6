#!/usr/bin/env bash
# Run 249: the state to close the session on (the conv-store statistics as a kernel instantiation of their own, off
# by default; the fused block as one op; the 16-bit shifted-x unit of 48 and word fragments by default): the whole GPU
# test directory, L2-61 through `tconv bench` in TF32 and bf16, and a same-build A/B of TCONV_CONV_STORE_STATISTICS.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 330 python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
echo "GPU tests rc $? ($((SECONDS-t0)) s)"; tail -2 $OUT/pytest.log; grep -E "^FAILED|^ERROR" $OUT/pytest.log | head -20
mkdir -p /tmp/b
for prec in tf32 bf16; do
  timeout 60 python3 -m tconv bench l2_61_convt3d_relu_groupnorm --precision $prec --no-compile --runs 20 --warmup 3 \
    --out /tmp/b > /tmp/b/bench_$prec.log 2>&1; echo "bench $prec rc $? ($((SECONDS-t0)) s)"; grep -E "^\[" /tmp/b/bench_$prec.log | cut -c1-220
done
cp /tmp/b/*.json /tmp/b/*.log $OUT/ 2>/dev/null
OUT=/tmp/ab SWITCH=TCONV_CONV_STORE_STATISTICS VALUES="0 1" ROUNDS=1 PRECISIONS="tf32 bf16" timeout 80 \
  bash scripts/device_switch_ab.sh l2_61_convt3d_relu_groupnorm > $OUT/switch_stats.log 2>&1
echo "A/B rc $? ($((SECONDS-t0)) s)"; grep fwd $OUT/switch_stats.log | sed 's/ \+/ /g'
echo "done $((SECONDS-t0)) s"
