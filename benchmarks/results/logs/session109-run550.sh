#!/usr/bin/env bash
# Session 109, run 550 (prepared in session 108 as the next session's first call; session 108 got no device).
# One H100 or H200, cold; committed before the call, which passes TCONV_COMMIT=<full sha, typed out>.
# If item 2 wins, flip fused.CONV_STORE_STATISTICS on and take L2-61's
# verified rows (TF32, bf16) on the warm machine; next-session-third-run.sh holds what session 107 had prepared.
# 1. GroupNorm statistics in the conv's store, second form (wide_rows_group_stats: from the wide-rows tile's
#    accumulators on the warp-specialized form): the contract tests (9 cases, 3D and 2D, x 3 dtypes x 2 layouts) and
#    where it is planned. Predicted: pass.
# 2. Its A/B on L2-61 (TCONV_CONV_STORE_STATISTICS 0 / 1): kernel breakdown in TF32, quick timing in TF32 and bf16.
#    Predicted: the forward kernel +2-4 % (~0.02-0.035 ms), the statistics pass (0.131 ms TF32, ~0.085 bf16) gone:
#    forward ~0.10 ms faster in TF32.
# 3. scripts/exact_split_probe.py (L2-61, fam06): whether the wide-rows wgmma kernel's own accumulation over a whole K
#    keeps a 3xTF32 split inside the exact contract (the design question of an exact-fp32 form of that kernel).
#    Predicted: tf32 ~10-100 (TF32 is not exact), exact <= 1; split_terms unknown (<= 1 would allow the design).
# 4. Carried from session 107 (prepared then as the first call, never run): the ring's tests under the default.
source scripts/device_prelude.sh
left 290 && gpu_tests 140 store_stats tests/test_fused_gpu.py "conv_store"
breakdowns_ab 400 TCONV_CONV_STORE_STATISTICS "0 1" "unit_stride_forward|stats_channels|finalize|total" tf32 \
  contiguous l2_61_convt3d_relu_groupnorm
for precision in tf32 bf16; do
  for v in 0 1; do
    left 455 && quick_time "store_stats_$v" l2_61_convt3d_relu_groupnorm $precision auto TCONV_CONV_STORE_STATISTICS=$v
  done
done
left 480 && (cd scripts && timeout 55 python3 exact_split_probe.py l2_61_convt3d_relu_groupnorm \
  fam06_convt2d_k3x5_128x256 2>&1 | grep -v Warn | tee "$LOG/exact_split_probe.log" | cut -c1-300)
left 510 && gpu_tests 80 ring_default tests/test_conv_transpose_gpu.py \
  "shifted_x_ring_agrees_bitwise or shifted_x_ring_overlap_agrees_bitwise or shifted_x_where_planned"
device_finish
