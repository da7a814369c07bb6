#!/usr/bin/env bash
# Prepared in session 35 for the next session's first call (its device budget ended after run 241):
#  1. the build (108-154 s on a fresh H100 in session 35),
#  2. the 16-bit shifted-x unit of 48 (never run on a GPU; reachable only through TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=48):
#     the shifted-x tests and compute-sanitizer memcheck with it forced, then a same-build A/B "0" (auto: 32) / "48",
#     bf16 fwd+bwd, on the shapes whose 16-bit grad_weight takes the shifted-x kernel. Predicted: fewer units at the same
#     padded positions (L2-61 W_out 34: 1 x 48 against 2 x 32; L1-68 68: 2 against 3; fam06 260: 6 against 9), so where
#     the per-unit cost dominates (run 231: ~2540 cycles per unit against ~290 of MMAs on L2-61) grad_weight falls by up
#     to a third; the copied rows (L1-71, fam01, fam05) copy three spans per row and may gain less,
#     The same for TCONV_GRAD_WEIGHT_SHIFTED_X_WORDS=1 (the 16-bit consumers' grad_output fragments as 32-bit words
#     where a row allows, instead of two 16-bit loads, two selects and a merge per register; same values): tests,
#     memcheck (both switches on), A/B "0" / "1" at the unit of 32. Predicted: fewer consumer instructions per unit
#     (run 231: about half the issue slots used on L2-61), a gain only if issue bounds the kernel,
#  3. the source-level profile (per-SASS executed counts and stall samples) of the shifted-x grad_weight on L2-61 bf16
#     and of the unit-stride forward on fam06 bf16 (270 TFLOP/s against cuDNN's 710),
#  4. the warp-stall breakdown of those two and of DCGAN's bf16 forward gather,
#  5. the TF32 suite with the time left (TF32 code unchanged since 0d75e11, so a repeat).
# Everything but the suite goes to /tmp/n and comes back as one archive (a call returns a limited number of files).
# Read the CSVs offline: python3 scripts/ncu_source_summary.py <csv> --top 30
# Usage: COMMIT=<sha> bash benchmarks/results/logs/session35-next_run.sh            (items 1-2)
#        then on the warm machine COMMIT=<sha> PART=2 bash ... (the profiles, the suite)
set -uo pipefail
export TORCH_CUDA_ARCH_LIST=9.0 PYTHONUNBUFFERED=1 TCONV_BUILD_DIR=/tmp/tconv_build TCONV_COMMIT=${COMMIT:?pass COMMIT=<sha>}
t0=$SECONDS
python3 -m pip install -q --no-deps --no-build-isolation -e . > /tmp/pip.log 2>&1 || { tail -30 /tmp/pip.log; exit 1; }
python3 -c "import tconv; tconv._build.load()" > /tmp/build.log 2>&1 || { grep -E "error|Error" /tmp/build.log | head -30; exit 1; }
echo "build $((SECONDS-t0)) s"; python3 -m tconv digest; nvidia-smi --query-gpu=name --format=csv,noheader
N=/tmp/n${PART:-1}; mkdir -p $N
if [ "${PART:-1}" = 1 ]; then
TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=48 timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py -k shifted_x > $N/pytest_unit48.log 2>&1
echo "unit-48 shifted-x tests rc $? ($((SECONDS-t0)) s)"; tail -2 $N/pytest_unit48.log; grep -E "^FAILED" $N/pytest_unit48.log | head
TCONV_GRAD_WEIGHT_SHIFTED_X_WORDS=1 timeout 120 python3 -m pytest -q -rfE -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py -k shifted_x > $N/pytest_words.log 2>&1
echo "word-fragment shifted-x tests rc $? ($((SECONDS-t0)) s)"; tail -2 $N/pytest_words.log; grep -E "^FAILED" $N/pytest_words.log | head
TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=48 TCONV_GRAD_WEIGHT_SHIFTED_X_WORDS=1 timeout 150 compute-sanitizer --tool memcheck \
  --kernel-name kns=shifted_x python3 tests/sanitize_small.py > $N/memcheck_unit48_words.log 2>&1
echo "memcheck (unit 48, words) rc $?"; tail -2 $N/memcheck_unit48_words.log
OUT=$N/ab SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT VALUES="0 48" ROUNDS=2 PRECISIONS="bf16" timeout 200 \
  bash scripts/device_switch_ab.sh l2_61_convt3d_relu_groupnorm l1_68_convt3d_square_input_asym_kernel \
  fam06_convt2d_k3x5_128x256 fam03_convt3d_k3_64x64x64 fam02_convt3d_k3x5x7_16x32x64 l1_71_convt2d_asym_input_square_kernel \
  > $N/switch_unit48.log 2>&1; echo "unit-48 A/B rc $? ($((SECONDS-t0)) s)"; grep fwd $N/switch_unit48.log | sed 's/ \+/ /g'
OUT=$N/ab_words SWITCH=TCONV_GRAD_WEIGHT_SHIFTED_X_WORDS VALUES="0 1" ROUNDS=2 PRECISIONS="bf16" timeout 200 \
  bash scripts/device_switch_ab.sh l2_61_convt3d_relu_groupnorm l1_68_convt3d_square_input_asym_kernel \
  fam06_convt2d_k3x5_128x256 fam03_convt3d_k3_64x64x64 fam02_convt3d_k3x5x7_16x32x64 l1_71_convt2d_asym_input_square_kernel \
  > $N/switch_words.log 2>&1; echo "words A/B rc $? ($((SECONDS-t0)) s)"; grep fwd $N/switch_words.log | sed 's/ \+/ /g'
for csv in $N/src_*.csv; do python3 scripts/ncu_source_summary.py $csv --top 30 > ${csv%.csv}.summary.txt 2>&1; done
tar -czf $OUT/part1.tar.gz -C $N .
echo "done $((SECONDS-t0)) s"; exit 0
fi
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
tar -czf $OUT/part2.tar.gz -C $N .
mkdir -p /tmp/suite
left=$(( 540 - (SECONDS - t0) ))
if [ $left -gt 60 ]; then
  timeout $((585 - (SECONDS - t0))) python3 -m tconv bench --suite all --precision tf32 --no-compile --runs 20 \
    --warmup 3 --time-budget $left --out /tmp/suite > /tmp/suite/bench.log 2>&1
  echo "bench rc $? (3: rows left; resume with --resume on the warm machine)"
  cp /tmp/suite/bench_*.json $OUT/; grep -E "^\[" /tmp/suite/bench.log | cut -c1-200 | tail -30
fi
echo "done $((SECONDS-t0)) s"
