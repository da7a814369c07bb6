#!/usr/bin/env bash
# Run 252: the unit-stride forward's stores by rows (staged_store for the x-as-A tiles, row pairs as one store):
# the unit-stride GPU tests (forward and grad_input, TF32/fp16/bf16), then same-build A/Bs of
# TCONV_UNIT_STRIDE_STAGED_STORE 1/0 (the x-as-A tiles: fam06, L2-61, fam05, fam04) and TCONV_UNIT_STRIDE_PAIR_STORES
# 1/0 (the weights-as-A tiles: L1-68, fam01), bf16 and TF32.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "unit_stride" \
  > $OUT/pytest.log 2>&1
echo "GPU tests rc $? ($((SECONDS-t0)) s)"; tail -2 $OUT/pytest.log; grep -E "^FAILED|^ERROR" $OUT/pytest.log | head -20
OUT=$OUT/ab SWITCH=TCONV_UNIT_STRIDE_STAGED_STORE VALUES="1 0" ROUNDS=2 PRECISIONS="bf16 tf32" timeout 210 \
  bash scripts/device_switch_ab.sh fam06_convt2d_k3x5_128x256 l2_61_convt3d_relu_groupnorm fam05_convt2d_k3x7_512x512 \
  fam04_convt1d_k3_65536 > $OUT/switch_staged.log 2>&1
echo "A/B staged rc $? ($((SECONDS-t0)) s)"; grep fwd $OUT/switch_staged.log | sed 's/ \+/ /g' | cut -c1-150
left=$(( 585 - (SECONDS - t0) ))
[ $left -gt 30 ] && OUT=$OUT/ab SWITCH=TCONV_UNIT_STRIDE_PAIR_STORES VALUES="1 0" ROUNDS=1 PRECISIONS="bf16 tf32" \
  timeout $left bash scripts/device_switch_ab.sh l1_68_convt3d_square_input_asym_kernel fam01_convt2d_k3_1024x1024 \
  > $OUT/switch_pairs.log 2>&1
echo "A/B pairs rc $? ($((SECONDS-t0)) s)"; grep fwd $OUT/switch_pairs.log | sed 's/ \+/ /g' | cut -c1-150
tar -czf $OUT/ab.tar.gz -C $OUT ab && rm -rf $OUT/ab
echo "done $((SECONDS-t0)) s"
