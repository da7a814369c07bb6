#!/usr/bin/env bash
# Session 73, run 424 (one H200). Run at the commit that adds this name, passed as TCONV_COMMIT.
# The unit-stride grad_weight on wgmma (UnitStrideWgmmaGradWeightTile; TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=1, off by
# default until measured), written without a GPU:
# 1. its test against float64 (fp16, bf16; 4-byte and 16-byte pieces, 1-21 taps, partial C_out tiles, folded rows);
# 2. quick timing bf16 with the switch on / off where "auto" takes the unit-stride grad_weight (fam05, fam01, fam11,
#    L1-71, fam08), and fam06 with the rule forced (64 -> 128). Predicted: fam05's grad_weight 1.94 -> ~0.8-1.0 ms
#    (22 MFLOP per 256-position tile, m64n32k16 at ~50 % of the bf16 rate), fwd+bwd 3.62 -> ~2.6-2.8 ms;
# 3. serial census of fam05 bf16 under it; memcheck of the kernel (sanitize_small); the mma.sync kernel's own tests
#    with the switch on (determinism between calls, the rule's cases).
source scripts/device_prelude.sh
left 300 && timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "unit_stride_wgmma_grad_weight" > "$LOG/pytest_wgmma.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_wgmma.log" | cut -c1-300 | tail -12
for sw in 1 0; do
  left 420 && (cd scripts && TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=$sw timeout 70 python3 quick_timing.py \
    fam05_convt2d_k3x7_512x512 fam01_convt2d_k3_1024x1024 fam11_convt2d_k3x7_p1x3_512x1024 \
    l1_71_convt2d_asym_input_square_kernel fam08_convt1d_k5_d3_131072 --precision bf16 --runs 10 --warmup 2 \
    --json "$LOG/t_$sw.json" 2>&1 | grep -v Warn | sed "s/^/wgmma=$sw /")
done | tee "$LOG/timing.log"
for sw in 1 0; do
  left 450 && (cd scripts && TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=$sw TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=$sw timeout 25 \
    python3 quick_timing.py fam06_convt2d_k3x5_128x256 --precision bf16 --runs 10 --warmup 2 \
    --json "$LOG/t_fam06_$sw.json" 2>&1 | grep -v Warn | sed "s/^/rule+wgmma=$sw /")
done | tee -a "$LOG/timing.log"
left 480 && (cd scripts && TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=1 TCONV_CONCURRENT_BACKWARD=0 timeout 30 python3 \
  kernel_breakdown.py fam05_convt2d_k3x7_512x512 --precision bf16 --iters 3 --json "$LOG/census_fam05.json" 2>&1 \
  | grep -v Warn) > "$LOG/census_fam05.log"
[ -f "$LOG/census_fam05.log" ] && grep -A6 "^==" "$LOG/census_fam05.log" | cut -c1-150
left 520 && TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=1 timeout 40 compute-sanitizer --tool memcheck \
  --kernel-name kns=unit_stride_wgmma python3 tests/sanitize_small.py > "$LOG/memcheck.log" 2>&1
[ -f "$LOG/memcheck.log" ] && tail -1 "$LOG/memcheck.log"
left 560 && TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=1 timeout 30 python3 -m pytest -q -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py --tb=short -k "test_unit_stride_mma_grad_weight" > "$LOG/pytest_mma_sw1.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_mma_sw1.log" | cut -c1-300 | tail -8
device_finish
