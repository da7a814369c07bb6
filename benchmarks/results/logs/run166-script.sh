#!/usr/bin/env bash
# Run 166 (session 24): the W fold at any stride (store_folded_tile with partial channels per column tile) and
# "auto" folding light GEMMs (kFoldMaxFlopsPerOutputByte = 16, tentative). Build, the fold tests (new
# test_fold_any_stride; forced igemm_fold grid, random sweep, 16-bit layouts), the fold sweep on the new strides
# and the d2 s2 / DCGAN shapes that must stay unfolded, tconv bench of fam13 (+fam10, fam12), memcheck, then the
# unit-stride sweep at this tree (run 165 measured the persistent_dynamic build 4-17 % slower than run 164's).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py tests/test_w_fold_cpu.py \
  -k "fold" > $OUT/pytest.log 2>&1; grep -E "passed|failed|Error|assert" $OUT/pytest.log | tail -8
echo "tests $((SECONDS-t0)) s"
timeout 100 python3 scripts/fold_sweep.py --precision tf32 bf16 --runs 10 --json $OUT/fold_sweep.json \
  --only fam13_k3s5d2 2d_k3s3_c64 1d_k6s3_c128 2d_k5s5_c32 fam12_k3s2d2 fam10_k3s2d2_3d dcgan_k4s2 > $OUT/fold_sweep.log 2>&1
cat $OUT/fold_sweep.log | cut -c1-230
echo "sweep $((SECONDS-t0)) s"
timeout 110 python3 -m tconv bench fam13_convt2d_k3_s5_p1_d2_64x128 fam12_convt1d_k3_s2_p1_d2_131072 \
  --precision tf32 --no-compile --runs 20 --warmup 3 --out $OUT > $OUT/bench.log 2>&1; echo "bench rc $?"
tail -12 $OUT/bench.log | cut -c1-220
echo "bench $((SECONDS-t0)) s"
timeout 70 compute-sanitizer --tool memcheck python3 tests/sanitize_small.py > $OUT/memcheck.log 2>&1; tail -1 $OUT/memcheck.log
left=$((585-SECONDS+t0)); [ $left -gt 20 ] && timeout $left python3 scripts/unit_stride_sweep.py --runs 10 > $OUT/unit_stride.log 2>&1
grep "forward auto" $OUT/unit_stride.log | cut -c1-75
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
echo "done $((SECONDS-t0)) s"
