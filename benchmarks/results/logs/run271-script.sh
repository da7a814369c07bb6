#!/usr/bin/env bash
# Run 271 (one H100, the session's last call): "auto" takes the tensor-core grouped grad_weight (run 270's rule) and
# the lines forward with 8 warps. The auto-rule and grouped tests, the grouped grad_weight in 3xTF32 with 8 warps at 8 x 8
# (unmeasured), then tconv bench rows of the three grouped problems in TF32, bf16 and exact fp32. COMMIT=<sha>.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
MAX_JOBS=16 python3 -c "import tconv; tconv._build.load()" > $OUT/build.log 2>&1 || { grep -E "error|Error" $OUT/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 -m pytest -q -rfE --maxfail=6 -p no:cacheprovider tests/test_conv_transpose_gpu.py \
  -k "auto_picks_grouped or grouped_mma_grad_weight or grouped_mma_lines or random_sweep_grouped and auto or grid_grouped and auto" \
  > $OUT/pytest.log 2>&1
echo "tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest.log; grep -E "^FAILED|^ERROR" $OUT/pytest.log | head -12
(cd scripts && timeout 60 python3 grad_weight_timing.py l1_73_convt3d_strided_padded_grouped \
  l1_72_convt3d_asym_kernel_strided_padded_grouped --precision fp32 --algorithm auto grouped_mma --runs 10) \
  > $OUT/gw_fp32.log 2>&1
cat $OUT/gw_fp32.log | cut -c1-150
mkdir -p /tmp/rows
left=$(( 560 - (SECONDS - t0) ))
timeout $(( left + 25 )) python3 -m tconv bench l1_73_convt3d_strided_padded_grouped l1_72_convt3d_asym_kernel_strided_padded_grouped \
  fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 --precision tf32 bf16 fp32 --no-compile --runs 20 --warmup 3 \
  --time-budget $left --out /tmp/rows > $OUT/bench.log 2>&1
echo "bench rc $?"; cp /tmp/rows/bench_*.json $OUT/ 2>/dev/null; grep -E "^\[" $OUT/bench.log | cut -c1-220
echo "done $((SECONDS-t0)) s"
