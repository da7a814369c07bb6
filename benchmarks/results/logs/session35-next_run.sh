#!/usr/bin/env bash
# Prepared in session 35 for the next session's first call (its device budget ended after run 241):
#  1. the build (108-154 s on a fresh H100 in session 35),
#  2. the source-level profile (per-SASS executed counts and stall samples) of the shifted-x grad_weight on L2-61 bf16
#     (2.07 ms, ~2540 cycles per unit against ~290 of MMAs: which instructions the consumers and shifters issue per
#     unit) and of the unit-stride forward on fam06 bf16 (270 TFLOP/s against cuDNN's 710),
#  3. the warp-stall breakdown of those two and of DCGAN's bf16 forward gather,
#  4. the TF32 suite with the time left (not rerun since 0d75e11; TF32 code unchanged since, so this is a repeat).
# Read the CSVs offline: python3 scripts/ncu_source_summary.py <csv> --top 30
# Usage: COMMIT=<sha> bash benchmarks/results/logs/session35-next_run.sh
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
# Everything goes to /tmp/n, returned as one archive (a call brings back a limited number of files).
N=/tmp/n; mkdir -p $N
OUT=$N KERNEL=shifted_x CASES="l2_61_bf16:l2_61_convt3d_relu_groupnorm:bf16" timeout 150 bash scripts/ncu_source.sh \
  > $N/ncu_source_shifted_x.log 2>&1; echo "ncu source shifted_x rc $? ($((SECONDS-t0)) s)"
OUT=$N KERNEL=strip_unit_stride_forward CASES="fam06_bf16:fam06_convt2d_k3x5_128x256:bf16" timeout 150 \
  bash scripts/ncu_source.sh > $N/ncu_source_unit_stride.log 2>&1; echo "ncu source unit-stride rc $? ($((SECONDS-t0)) s)"
for spec in "shifted_x:l2_61_bf16:l2_61_convt3d_relu_groupnorm:bf16" "strip_unit_stride_forward:fam06_bf16:fam06_convt2d_k3x5_128x256:bf16" \
            "gather_tf32:dcgan_bf16:real_dcgan_up:bf16"; do
  kernel=${spec%%:*}; case_=${spec#*:}
  OUT=$N/stalls_$kernel KERNEL=$kernel CASES="$case_" timeout 100 bash scripts/ncu_stalls.sh > $N/stalls_$kernel.log 2>&1
  echo "stalls $kernel rc $? ($((SECONDS-t0)) s)"; cut -c1-150 $N/stalls_$kernel.log | head -30
done
for csv in $N/src_*.csv; do python3 scripts/ncu_source_summary.py $csv --top 30 > ${csv%.csv}.summary.txt 2>&1; done
tar -czf $OUT/profiles.tar.gz -C $N .
mkdir -p /tmp/suite
left=$(( 540 - (SECONDS - t0) ))
if [ $left -gt 60 ]; then
  timeout $((585 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision tf32 --no-compile --runs 20 \
    --warmup 3 --time-budget $left --out /tmp/suite > /tmp/suite/bench.log 2>&1
  echo "bench rc $? (3: rows left; resume with --resume on the warm machine)"
  cp /tmp/suite/bench_*.json $OUT/; grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -30
fi
echo "done $((SECONDS-t0)) s"
