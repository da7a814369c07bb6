#!/usr/bin/env bash
# Session 39's prepared first device call: 5c4ef0b's grouped rule (L1-73 TF32 on the staged lines form, 3xTF32 by taps
# per output) and its tests were never run on a GPU. Copy to the repository root and run with COMMIT=<full sha>:
#   PART=tests  : the rule's tests, the lines tests (also with 8 warps per block), memcheck/racecheck of the lines
#                 kernel, the whole GPU directory
#   PART=ab     : 4 against 8 warps per lines block (TCONV_GROUPED_MMA_LINES_WARPS), 8 and 16 rows per tile with 8
#   PART=tf32   : the TF32 suite (RESUME=<device path of the JSON> on the warm machine for the rest)
#   PART=bf16   : the bf16 suite (the same)
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
MAX_JOBS=16 python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
case "${PART:-tests}" in
tests)
  timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_conv_transpose_gpu.py \
    -k "grouped_mma_lines or auto_picks_grouped" > $OUT/pytest_rule.log 2>&1
  echo "rule and lines tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_rule.log; grep -E "^FAILED|^ERROR" $OUT/pytest_rule.log | head
  TCONV_GROUPED_MMA_LINES_WARPS=8 timeout 60 python3 -m pytest -q -rfE -p no:cacheprovider \
    tests/test_conv_transpose_gpu.py -k "grouped_mma_lines" > $OUT/pytest_warps8.log 2>&1
  echo "lines tests with 8 warps rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest_warps8.log
  cp benchmarks/results/logs/run264-lines_sanitize.py /tmp/lines_sanitize.py
  for tool in memcheck racecheck; do
    timeout 100 compute-sanitizer --tool $tool --kernel-name kns=grouped_mma_lines python3 /tmp/lines_sanitize.py \
      > $OUT/sanitize_$tool.log 2>&1; echo "$tool rc $? ($((SECONDS-t0)) s)"; tail -2 $OUT/sanitize_$tool.log
  done
  timeout $(( 590 - (SECONDS - t0) )) python3 -m pytest -q -rfE -p no:cacheprovider tests > $OUT/pytest.log 2>&1
  echo "GPU tests rc $? ($((SECONDS-t0)) s)"; tail -1 $OUT/pytest.log; grep -E "^FAILED|^ERROR" $OUT/pytest.log | head -20
  ;;
ab)
  (cd scripts
   for cfg in "4 8" "8 8" "8 16"; do
     set -- $cfg
     TCONV_GROUPED_MMA_LINES_WARPS=$1 TCONV_GROUPED_MMA_LINES_ROWS=$2 timeout 100 python3 quick_timing.py \
       l1_73_convt3d_strided_padded_grouped l1_72_convt3d_asym_kernel_strided_padded_grouped \
       fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256 --precision tf32 bf16 fp32 --algorithm auto --runs 10 --warmup 2 \
       --json $OUT/ab_warps$1_rows$2.json 2>&1 | sed "s/^/WARPS=$1 ROWS=$2 /"
   done) > $OUT/ab.log 2>&1
  grep fwd $OUT/ab.log | sed 's/ \+/ /g' | cut -c1-150
  ;;
tf32|bf16|fp32)
  mkdir -p /tmp/suite
  left=$(( 560 - (SECONDS - t0) ))
  timeout $(( 590 - (SECONDS - t0) )) python3 -m tconv bench --suite all --precision $PART --no-compile --runs 20 \
    --warmup 3 --time-budget $left --out /tmp/suite ${RESUME:+--resume $RESUME} > /tmp/suite/bench.log 2>&1
  echo "bench rc $? (3: rows left)"; cp /tmp/suite/bench_*.json /tmp/suite/bench.log $OUT/ 2>/dev/null
  ls /tmp/suite/bench_*.json; grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -25
  ;;
esac
echo "done $((SECONDS-t0)) s"
