#!/usr/bin/env bash
# Session 103, run 541 (one H200); run with TCONV_COMMIT=<full sha of the commit it runs at, typed out>. Prepared in
# session 102; run 540's tests passed (specialized, persistent, 64-channel; memcheck / racecheck clean).
# Items 4-5 are for a third call (commented at the end).
# 1. The persistent kernel's A/B, TF32 (quick timing, L2-61 and fam06; L2-61's kernel breakdown). Predicted: L2-61's
#    conv kernel 0.884 -> ~0.75-0.80 ms (the set-up and ring fill of a block's later tiles overlap the MMAs, the store
#    goes from registers without the staging round trip: ~45 us a tile now, ~29 us of it MMAs), L2-61's forward 1.17
#    -> ~1.05; fam06's forward 1.70 -> ~1.55.
# 2. The 64-channel tile's specialized form, TF32: L2-61's grad_input (128 -> 64 channels, K 3456) ~1.09 -> ~1.0 ms
#    (fwd+bwd 4.6 -> ~4.5), fam03's forward (64 -> 64, K 1728) ~1.83 -> ~1.7 (looser than item 1: a stage's MMA work
#    halves while its x stays, so the producer is likelier to limit).
# 3. 16-bit calls on the specialized form (TCONV_UNIT_STRIDE_SPECIALIZED 1 -> 2; x in position pairs there since
#    session 102), bf16: L2-61's forward (0.753 ms verified) and fam06's (1.169). Predicted: a gain like TF32's (-8 to
#    -10 % of the conv), less where the k16 wgmmas already leave the tensor pipe waiting on shared memory.
# 4. Source counters of L2-61's TF32 conv on the persistent kernel: do the MMA warpgroups wait on full[] (the producer
#    too slow: x prefetched two stages ahead in registers) or on their store?
# 5. The TF32 suite's rows in what is left (contiguous; its last full run predates sessions 97-102's kernels).
source scripts/device_prelude.sh
l2=l2_61_convt3d_relu_groupnorm
for v in 0 1; do left 240 && quick_time "persistent_$v" $l2 tf32 auto TCONV_UNIT_STRIDE_PERSISTENT=$v; done
breakdowns_ab 300 TCONV_UNIT_STRIDE_PERSISTENT "0 1" "unit_stride_forward|total" tf32 contiguous $l2
for v in 0 1; do
  left 320 && quick_time "persistent_$v" fam06_convt2d_k3x5_128x256 tf32 auto TCONV_UNIT_STRIDE_PERSISTENT=$v
done
breakdowns_ab 400 TCONV_UNIT_STRIDE_SPECIALIZED_64 "0 1" "unit_stride_forward|total" tf32 contiguous $l2
for v in 0 1; do
  left 420 && quick_time "specialized_64_$v" fam03_convt3d_k3_64x64x64 tf32 auto TCONV_UNIT_STRIDE_SPECIALIZED_64=$v
done
for problem in $l2 fam06_convt2d_k3x5_128x256; do
  for v in 1 2; do left 500 && quick_time "specialized_$v" $problem bf16 auto TCONV_UNIT_STRIDE_SPECIALIZED=$v; done
done
device_finish
# A third call: the source counters, then the TF32 suite's rows.
#   TCONV_UNIT_STRIDE_PERSISTENT=1 ncu_source_kernel 150 l2_61_tf32_persistent $l2 tf32 contiguous \
#     strip_unit_stride_forward
#   bench_budget 590 tf32 contiguous l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256 \
#     fam03_convt3d_k3_64x64x64 l1_68_convt3d_square_input_asym_kernel l1_73_convt3d_strided_padded_grouped ...
