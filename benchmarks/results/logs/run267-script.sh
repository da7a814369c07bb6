#!/usr/bin/env bash
# Run 267: the lines form's staged store (per-warp C tile, W-major store loop) against fragments stored straight to
# global memory (TCONV_GROUPED_MMA_LINES_STAGED 1 / 0), "auto" taking the lines forward (16-bit data; fp32 with >= 6
# taps per output), their tests, then the TF32 suite with the time left (resume on the warm machine: RESUME=<json>).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
MAX_JOBS=16 python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/suite
if [ -z "${RESUME:-}" ]; then
  for staged in 1 0; do
    TCONV_GROUPED_MMA_LINES_STAGED=$staged timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider --maxfail=10 \
      tests/test_conv_transpose_gpu.py -k "grouped_mma_lines or auto_picks_grouped" > $OUT/pytest_staged$staged.log 2>&1
    echo "lines tests STAGED=$staged rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_staged$staged.log
    grep -E "^FAILED|^ERROR" $OUT/pytest_staged$staged.log | head
  done
  (cd scripts
   for staged in 1 0; do
     TCONV_GROUPED_MMA_LINES_STAGED=$staged timeout 100 python3 quick_timing.py l1_73_convt3d_strided_padded_grouped \
       l1_72_convt3d_asym_kernel_strided_padded_grouped fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 \
       --precision tf32 bf16 fp32 --algorithm grouped_mma --runs 10 --warmup 2 --json $OUT/ab_staged$staged.json 2>&1 | \
       sed "s/^/STAGED=$staged /"
   done
   timeout 100 python3 quick_timing.py l1_73_convt3d_strided_padded_grouped l1_72_convt3d_asym_kernel_strided_padded_grouped \
     fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 --precision tf32 bf16 fp32 --algorithm auto grouped --runs 10 --warmup 2 \
     --json $OUT/ab_auto.json 2>&1 | sed "s/^/rule /") > $OUT/ab.log 2>&1
  echo "A/B ($((SECONDS-t0)) s)"; grep fwd $OUT/ab.log | sed 's/ \+/ /g' | cut -c1-150
fi
left=$(( ${BUDGET:-560} - (SECONDS - t0) ))
[ $left -gt 60 ] && timeout $(( ${BUDGET:-560} + 30 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision tf32 \
  --no-compile --runs 20 --warmup 3 --time-budget $left --out /tmp/suite ${RESUME:+--resume $RESUME} > /tmp/suite/bench.log 2>&1
echo "bench rc $? (3: rows left)"; cp /tmp/suite/bench_*.json /tmp/suite/bench.log $OUT/ 2>/dev/null
grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -25
echo "done $((SECONDS-t0)) s"
