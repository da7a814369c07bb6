#!/usr/bin/env bash
# Prepared in session 37 for the next session's first call (its device budget ended after run 255). No new code: it
# measures where the unit-stride forward's time goes now that it stores by rows (notes/perf.md, session 37, "Next"):
#  1. the build,
#  2. the source-level profile and stall breakdown of the unit-stride forward on fam06 bf16 (run 252: fill ~13 % and
#     store ~31 % of stall samples before the change) and L2-61 TF32 (25.8 % barrier),
#  3. the per-kernel breakdown of fam06 bf16, L2-61 TF32 and DCGAN bf16 (torch profiler),
#  4. the exact fp32 suite with the time left (last run at 83bc7bd; HiFi-GAN's exact paths changed since). Resume it on
#     the warm machine with RESUME=<json>.
# Read the CSVs offline: python3 scripts/ncu_source_summary.py <csv>
# Usage: COMMIT=<sha> bash benchmarks/results/logs/session37-next_run.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/suite
if [ -z "${RESUME:-}" ]; then
  N=/tmp/n; mkdir -p $N
  OUT=$N KERNEL=strip_unit_stride_forward CASES="fam06_bf16:fam06_convt2d_k3x5_128x256:bf16 l2_61_tf32:l2_61_convt3d_relu_groupnorm:tf32" \
    timeout 200 bash scripts/ncu_source.sh > $N/ncu_source_unit_stride.log 2>&1; echo "ncu source rc $? ($((SECONDS-t0)) s)"
  OUT=$N/stalls KERNEL=strip_unit_stride_forward CASES="fam06_bf16:fam06_convt2d_k3x5_128x256:bf16" timeout 100 \
    bash scripts/ncu_stalls.sh > $N/stalls.log 2>&1; echo "stalls rc $? ($((SECONDS-t0)) s)"; cut -c1-150 $N/stalls.log | head -30
  for csv in $N/src_*.csv; do python3 scripts/ncu_source_summary.py $csv --top 30 > ${csv%.csv}.summary.txt 2>&1; done
  timeout 100 python3 scripts/kernel_breakdown.py fam06_convt2d_k3x5_128x256 real_dcgan_up --precision bf16 --iters 3 \
    > $N/breakdown_bf16.log 2>&1; echo "breakdown bf16 rc $?"; cut -c1-170 $N/breakdown_bf16.log | head -30
  timeout 60 python3 scripts/kernel_breakdown.py l2_61_convt3d_relu_groupnorm --precision tf32 --iters 3 \
    > $N/breakdown_tf32.log 2>&1; echo "breakdown tf32 rc $?"; cut -c1-170 $N/breakdown_tf32.log | head -20
  tar -czf $OUT/profiles.tar.gz -C $N .
fi
left=$(( 560 - (SECONDS - t0) ))
[ $left -gt 60 ] && timeout $((590 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision fp32 --no-compile \
  --runs 20 --warmup 3 --time-budget $left --out /tmp/suite ${RESUME:+--resume $RESUME} > /tmp/suite/bench.log 2>&1
echo "bench rc $? (3: rows left)"; cp /tmp/suite/bench_*.json /tmp/suite/bench.log $OUT/ 2>/dev/null
grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -25
echo "done $((SECONDS-t0)) s"
