#!/usr/bin/env bash
# Run 94 (session 15, not committed): build new + old trees, GPU tests of the changes, switch A/Bs, tree A/B.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
pip install -q --no-deps --no-build-isolation -e . > "$OUT/pip.log" 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$OUT/gpu.txt"
python3 -c "import torch; print(torch.__version__, torch.version.cuda, torch.backends.cudnn.version())" >> "$OUT/gpu.txt"
t0=$SECONDS
OUT="$OUT" ROUNDS=0 bash scripts/device_ab.sh ab_old || { echo build failed; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 240 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_grad_weight_ordered_gpu.py tests/test_conv_transpose_gpu.py \
  -k "ordered or phase_split or cuda_graph" > "$OUT/pytest.log" 2>&1; tail -4 "$OUT/pytest.log"
echo "tests $((SECONDS-t0)) s"
OUT="$OUT/sw" SWITCH=TCONV_GRAD_WEIGHT_ORDERED VALUES="1 0" ROUNDS=2 PRECISIONS="tf32 bf16 fp32" \
  timeout 150 bash scripts/device_switch_ab.sh real_dcgan_up 2>&1 | tee "$OUT/switch_ordered.log" | grep -v Warn
OUT="$OUT/sw" SWITCH=TCONV_PHASE_SPLIT_EDGES VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" \
  timeout 100 bash scripts/device_switch_ab.sh real_hifigan_up 2>&1 | tee "$OUT/switch_edges.log" | grep -v Warn
echo "switches $((SECONDS-t0)) s"
OUT="$OUT/ab" SKIP_BUILD=1 ROUNDS=1 PRECISIONS="tf32 bf16" timeout $((570-SECONDS)) bash scripts/device_ab.sh ab_old \
  real_dcgan_up real_hifigan_up l2_61_convt3d_relu_groupnorm l1_68_convt3d_square_input_asym_kernel \
  fam06_convt2d_k3x5_128x256 fam13_convt2d_k3_s5_p1_d2_64x128 l1_71_convt2d_asym_input_square_kernel 2>&1 | tee "$OUT/ab.log" | grep -v Warn
echo "done $((SECONDS-t0)) s"
