#!/usr/bin/env bash
# Run 227 (session 34): the shifted-x grad_weight with copied grad_output rows (TCONV_GRAD_WEIGHT_SHIFTED_X_COPY_DY,
# default 1): a 16-bit grad_output that no tensor map takes (L1-71, fam01: W_out 1026; fam05: 518; fam04: 65538), whose
# rows producer warp 0's 32 lanes copy in 4-byte cp.async pieces, arriving on the stage's full barrier. Those shapes kept
# the widened mma.sync grad_weight in run 225 (bf16 fwd+bwd level there).
# Predicted (bf16 fwd+bwd): fam05 5.74 -> ~3.5 ms, L1-71 3.79 -> ~2.5, fam01 12.2 -> ~9; fam04 (1D: one (kd, kh) row for
# three consumer warpgroups) possibly a loss. L1-68 unchanged (its rows take the 5-D map; registers as in the table).
# Usage: COMMIT=<sha> bash run227.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "shifted_x" \
  > $OUT/pytest_shifted_x.log 2>&1
echo "shifted-x tests rc $? ($((SECONDS-t0)) s)"; grep -E "passed|failed|Error|assert" $OUT/pytest_shifted_x.log | tail -6
OUT=$OUT SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_COPY_DY VALUES="1 0" ROUNDS=2 PRECISIONS="bf16" \
  timeout $((430 - (SECONDS - t0))) bash scripts/device_switch_ab.sh l1_71_convt2d_asym_input_square_kernel \
  fam05_convt2d_k3x7_512x512 fam01_convt2d_k3_1024x1024 fam04_convt1d_k3_65536 > $OUT/switch_copy_dy.log 2>&1
echo "A/B rc $? ($((SECONDS-t0)) s)"; grep -E "fwd" $OUT/switch_copy_dy.log | sed 's/ \+/ /g' | cut -c1-150
(cd scripts && timeout $((580 - (SECONDS - t0))) python3 quick_timing.py l1_68_convt3d_square_input_asym_kernel \
  --precision tf32 bf16 --runs 10 --warmup 2) > $OUT/l1_68.log 2>&1
echo "L1-68 (run 217 suite: TF32 fwd+bwd 21.72 ms, bf16 14.51)"; grep fwd $OUT/l1_68.log | sed 's/ \+/ /g'
echo "done $((SECONDS-t0)) s"
