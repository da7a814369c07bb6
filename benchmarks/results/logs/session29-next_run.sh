#!/usr/bin/env bash
# Prepared in session 29 for the next session's first call (~420 s on a fresh machine): the measurements that session
# 29's misses lack, none of which needs a code change.
# 1. Breakdowns (TF32, kernel time per fwd+bwd): L1-71 with the flat shifted-x map (run 186 gained 0.27 of the
#    predicted 0.7 ms: where is its grad_weight now?), L1-68 (the H200's split of 24.0 ms; run 184's was the H100's)
#    and DCGAN (the one TF32 row below cuDNN-benchmark, 0.85x).
# 2. ncu source counters of shifted_x<5> on L1-68 (run 187 had the stall totals only: wait / barrier / long
#    scoreboard about equal). Read offline with scripts/ncu_source_summary.py: which warp role (producer lane,
#    rounders, consumers) holds the samples, and where.
# Usage: COMMIT=<sha from the development machine> bash benchmarks/results/logs/session29-next_run.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"
python3 -m tconv digest
for stem in l1_71_convt2d_asym_input_square_kernel l1_68_convt3d_square_input_asym_kernel real_dcgan_up; do
  (cd scripts && timeout 60 python3 kernel_breakdown.py $stem --precision tf32 --iters 3) > $OUT/breakdown_$stem.log 2>&1
  echo "breakdown $stem rc $?"; grep -E "^==|ms  x" $OUT/breakdown_$stem.log | cut -c1-160 | head -8
done
echo "t $((SECONDS-t0)) s"
OUT=$OUT KERNEL=grad_weight_wgmma_shifted_x CASES="l1_68_tf32:l1_68_convt3d_square_input_asym_kernel:tf32" \
  timeout $((560 - (SECONDS - t0))) bash scripts/ncu_source.sh 2>&1 | cut -c1-200
gzip -f $OUT/src_*.csv 2>/dev/null
python3 scripts/ncu_source_summary.py $OUT/src_l1_68_tf32.csv.gz --top 25 > $OUT/src_summary.txt 2>&1
head -40 $OUT/src_summary.txt | cut -c1-200
echo "done $((SECONDS-t0)) s"
