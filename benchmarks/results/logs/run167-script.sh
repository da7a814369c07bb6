#!/usr/bin/env bash
# Run 167 (session 24): the fold rule after run 166 (fp32 data: work ratio <= 1.03 or <= 120 TF32 FLOPs per output
# byte, 3xTF32 counting three; fp16/bf16: the work-ratio rule with whole channels per tile), and an A/B switch for
# the wgmma grad_weight on 1D/2D shapes (TCONV_GRAD_WEIGHT_WGMMA_ANY_DIMS=1). Build, the fold / grid / specialized
# tests, the grid's TF32 cases with the switch on, the fold sweep in exact fp32 and on the 4/3-MMA shapes above the
# bound, fwd+bwd with the switch off/on (DCGAN, fam05, fam06, fam01), and tconv bench of the rows "auto" changed.
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py tests/test_w_fold_cpu.py \
  tests/test_gather_specialized_gpu.py -k "fold or test_grid or specialized" > $OUT/pytest.log 2>&1
grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -6
TCONV_GRAD_WEIGHT_WGMMA_ANY_DIMS=1 timeout 45 python3 -m pytest -q -rfE -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py -k "test_grid and tf32 and not forced" > $OUT/pytest_wgmma2d.log 2>&1
grep -E "passed|failed|Error|assert" $OUT/pytest_wgmma2d.log | tail -4
echo "tests $((SECONDS-t0)) s"
timeout 60 python3 scripts/fold_sweep.py --precision fp32 --runs 10 --only fam13_k3s5d2 fam12_k3s2d2 fam10_k3s2d2_3d \
  > $OUT/fold_sweep.log 2>&1
timeout 45 python3 scripts/fold_sweep.py --precision tf32 --runs 10 --only 3d_k3s2_op1 2d_k3s2_op1 1d_k3s2_op1_c256 \
  >> $OUT/fold_sweep.log 2>&1
cut -c1-200 $OUT/fold_sweep.log
echo "sweep $((SECONDS-t0)) s"
for v in 0 1 0 1; do
  echo "--- TCONV_GRAD_WEIGHT_WGMMA_ANY_DIMS=$v" >> $OUT/wgmma2d.log
  TCONV_GRAD_WEIGHT_WGMMA_ANY_DIMS=$v timeout 40 python3 scripts/quick_timing.py real_dcgan_up fam05_convt2d_k3x7_512x512 \
    fam06_convt2d_k3x5_128x256 --precision tf32 --runs 10 >> $OUT/wgmma2d.log 2>&1
done
grep -E "^---|ms" $OUT/wgmma2d.log | cut -c1-160
echo "ab $((SECONDS-t0)) s"
left=$((570-SECONDS+t0))
timeout $left python3 -m tconv bench fam13_convt2d_k3_s5_p1_d2_64x128 fam12_convt1d_k3_s2_p1_d2_131072 \
  fam10_convt3d_k3_s2_p1_d2_16x32x32 --precision tf32 fp32 --no-compile --runs 20 --warmup 3 --out $OUT \
  --time-budget $((left-40)) > $OUT/bench.log 2>&1; echo "bench rc $?"
tail -9 $OUT/bench.log | cut -c1-220
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
echo "done $((SECONDS-t0)) s"
