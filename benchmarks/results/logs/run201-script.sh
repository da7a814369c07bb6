#!/usr/bin/env bash
# Run 201 (session 30, the last device seconds): ncu source counters of shifted_x<5> on L1-68 after 7b8ff25 (the
# wgmmas no longer fenced), for the L2-traffic work that run 200's totals point to. Read offline with
# scripts/ncu_source_summary.py; compare with run 193's (logs/run193-src_summary.txt).
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
OUT=$OUT KERNEL=grad_weight_wgmma_shifted_x CASES="l1_68_tf32:l1_68_convt3d_square_input_asym_kernel:tf32" \
  timeout 240 bash scripts/ncu_source.sh 2>&1 | cut -c1-200
gzip -f $OUT/src_*.csv 2>/dev/null
python3 scripts/ncu_source_summary.py $OUT/src_l1_68_tf32.csv.gz --top 25 > $OUT/src_summary.txt 2>&1
head -45 $OUT/src_summary.txt | cut -c1-200
echo "done $((SECONDS-t0)) s"
