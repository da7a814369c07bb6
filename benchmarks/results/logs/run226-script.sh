#!/usr/bin/env bash
# Run 226 (session 34): the widened shifted-x grad_weight with run 225's rule (fp32 data that the wgmma kernel takes,
# 3D with > 32 input channels per group, stay there): the whole GPU test directory, then `tconv bench` rows of the
# shapes whose grad_weight kernel changed (bf16: L2-61, fam02, fam03, fam06, fam07, fam11; TF32: fam01, fam02, fam05,
# fam06, fam11), against eager and cuDNN-benchmark in one process each.
# Usage: COMMIT=<sha> bash run226-script.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
if [ "${TESTS:-1}" = 1 ]; then
  timeout 260 python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
  echo "pytest rc $? ($((SECONDS-t0)) s)"; grep -E "passed|failed|Error" $OUT/pytest.log | tail -12
fi
mkdir -p /tmp/b
for spec in "bf16 l2_61_convt3d_relu_groupnorm fam02_convt3d_k3x5x7_16x32x64 fam03_convt3d_k3_64x64x64 fam06_convt2d_k3x5_128x256 fam07_convt3d_k3_96x96x96 fam11_convt2d_k3x7_p1x3_512x1024" \
            "tf32 fam01_convt2d_k3_1024x1024 fam02_convt3d_k3x5x7_16x32x64 fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256 fam11_convt2d_k3x7_p1x3_512x1024"; do
  set -- $spec; prec=$1; shift
  left=$((590 - (SECONDS - t0))); [ $left -lt 60 ] && break
  timeout $left python3 -m tconv bench "$@" --precision $prec --no-compile --runs 20 --warmup 3 --out /tmp/b \
    > $OUT/bench_$prec.log 2>&1
  echo "bench $prec rc $?"; grep -E "^\[" $OUT/bench_$prec.log | cut -c1-220
done
cp /tmp/b/bench_*.json $OUT/ 2>/dev/null
echo "done $((SECONDS-t0)) s"
