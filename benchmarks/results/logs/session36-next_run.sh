#!/usr/bin/env bash
# Prepared in session 36 for the next session's first call (its device budget ended after run 251). Nothing here is new
# code: it measures where L2-61's TF32 time goes before the next change (notes/perf.md, session 36, "Next" 1):
#  1. the build,
#  2. the source-level profile (per-SASS executed counts and stall samples) of the unit-stride forward on L2-61 TF32
#     (1.20 ms of the 1.56 ms forward) and on fam06 bf16 (run 243 had it 36.8 % long scoreboard at the 16-bit x
#     packing), and of the TF32 wgmma grad_weight on L2-61 (2.36 ms of the backward),
#  3. the warp-stall breakdowns of the same three,
#  4. the TF32 suite with the time left (resume on the warm machine: PART=2 with RESUME=<json>).
# Everything but the suite comes back as one archive. Read the CSVs offline: python3 scripts/ncu_source_summary.py <csv>
# Usage: COMMIT=<sha> bash benchmarks/results/logs/session36-next_run.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p /tmp/suite
if [ -z "${RESUME:-}" ]; then
  N=/tmp/n; mkdir -p $N
  OUT=$N KERNEL=strip_unit_stride_forward CASES="l2_61_tf32:l2_61_convt3d_relu_groupnorm:tf32 fam06_bf16:fam06_convt2d_k3x5_128x256:bf16" \
    timeout 200 bash scripts/ncu_source.sh > $N/ncu_source_unit_stride.log 2>&1; echo "ncu source unit-stride rc $? ($((SECONDS-t0)) s)"
  OUT=$N KERNEL=grad_weight_wgmma_kernel CASES="l2_61_tf32_gw:l2_61_convt3d_relu_groupnorm:tf32" timeout 120 \
    bash scripts/ncu_source.sh > $N/ncu_source_grad_weight.log 2>&1; echo "ncu source grad_weight rc $? ($((SECONDS-t0)) s)"
  for spec in "strip_unit_stride_forward:l2_61_tf32:l2_61_convt3d_relu_groupnorm:tf32" \
              "grad_weight_wgmma_kernel:l2_61_tf32:l2_61_convt3d_relu_groupnorm:tf32"; do
    kernel=${spec%%:*}; case_=${spec#*:}
    OUT=$N/stalls_$kernel KERNEL=$kernel CASES="$case_" timeout 100 bash scripts/ncu_stalls.sh > $N/stalls_$kernel.log 2>&1
    echo "stalls $kernel rc $? ($((SECONDS-t0)) s)"; cut -c1-150 $N/stalls_$kernel.log | head -30
  done
  for csv in $N/src_*.csv; do python3 scripts/ncu_source_summary.py $csv --top 30 > ${csv%.csv}.summary.txt 2>&1; done
  tar -czf $OUT/profiles.tar.gz -C $N .
  left=$(( 560 - (SECONDS - t0) ))
  [ $left -gt 60 ] && timeout $((590 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision tf32 --no-compile \
    --runs 20 --warmup 3 --time-budget $left --out /tmp/suite > /tmp/suite/bench.log 2>&1
else
  left=$(( 560 - (SECONDS - t0) ))
  timeout $((590 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision tf32 --no-compile --runs 20 --warmup 3 \
    --time-budget $left --out /tmp/suite --resume $RESUME > /tmp/suite/bench.log 2>&1
fi
echo "bench rc $? (3: rows left)"; cp /tmp/suite/bench_*.json /tmp/suite/bench.log $OUT/ 2>/dev/null
grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -25
echo "done $((SECONDS-t0)) s"
