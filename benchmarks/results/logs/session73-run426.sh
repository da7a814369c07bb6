#!/usr/bin/env bash
# Session 73, run 426 (one H200; the session's last ~500 s of device time). Run at the commit that adds this name,
# passed as TCONV_COMMIT.
# 1. The wgmma unit-stride grad_weight's kOverlap form (TCONV_UNIT_STRIDE_WGMMA_OVERLAP=1, written after run 425:
#    the tile's wgmmas in two halves around the next window's transpose and the copies after it, a third grad tile
#    buffer): its test against float64, then fam05 bf16 quick timing against run 425's form. Predicted: if run 425's
#    form left the tensor pipe idle while the grad tile's copy was issued after the wait (~1.3 k of ~17 k cycles a
#    tile), fwd+bwd 3.07 -> ~2.95-3.0 ms; no gain if wgmma issue blocks until the first half is nearly done.
# 2. ncu stalls of run 425's form on fam05 (where the other ~8 k cycles a tile go against the shared-memory floor).
source scripts/device_prelude.sh
left 330 && TCONV_UNIT_STRIDE_WGMMA_OVERLAP=1 timeout 90 python3 -m pytest -q -p no:cacheprovider \
  tests/test_conv_transpose_gpu.py --tb=short -k "unit_stride_wgmma_grad_weight" > "$LOG/pytest_overlap.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest_overlap.log" | cut -c1-300 | tail -8
for round in 1 2; do
  for sw in 1 0; do
    left 390 && (cd scripts && TCONV_UNIT_STRIDE_WGMMA_OVERLAP=$sw timeout 20 python3 quick_timing.py \
      fam05_convt2d_k3x7_512x512 --precision bf16 --runs 10 --warmup 2 --json "$LOG/t_r${round}_$sw.json" 2>&1 \
      | grep -v Warn | sed "s/^/overlap=$sw /")
  done
done | tee "$LOG/timing.log"
left 400 && OUT="$LOG" KERNEL=unit_stride_wgmma CASES="fam05_bf16_wgmma_grad_weight:fam05_convt2d_k3x7_512x512:bf16" \
  timeout 70 bash scripts/ncu_stalls.sh 2>&1 | tail -25
device_finish
