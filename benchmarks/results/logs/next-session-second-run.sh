#!/usr/bin/env bash
# Prepared in session 102 for the next session's second GPU call, after next-session-first-run.sh's tests passed
# (rename to sessionNN-runMMM.sh when it runs, fix these lines, commit BEFORE the call, pass TCONV_COMMIT=<full sha>).
# 0. The specialized form on the 64-channel weights-as-A tile (TCONV_UNIT_STRIDE_SPECIALIZED_64, development, default
#    0; session 102, never run) and its persistent kernel: contract, kernel names, bitwise against the other form on
#    6 cases with the half tile off; memcheck and racecheck of a small 64-channel forward on 3 persistent blocks.
#    Its A/B below runs only if that test passed. Items 3-5 are for a third call (commented at the end).
# 1. The persistent kernel's A/B, TF32 (quick timing, L2-61 and fam06; L2-61's kernel breakdown). Predicted: L2-61's
#    conv kernel 0.884 -> ~0.75-0.80 ms (the set-up and ring fill of a block's later tiles overlap the MMAs, the store
#    goes from registers without the staging round trip: ~45 us a tile now, ~29 us of it MMAs), L2-61's forward 1.17
#    -> ~1.05; fam06's forward 1.70 -> ~1.55.
# 2. The 64-channel tile's specialized form, TF32: L2-61's grad_input (128 -> 64 channels, K 3456) ~1.09 -> ~0.98 ms
#    (fwd+bwd 4.6 -> ~4.5), fam03's forward (64 -> 64, K 1728) ~1.83 -> ~1.65.
# 3. 16-bit calls on the specialized form (TCONV_UNIT_STRIDE_SPECIALIZED 1 -> 2; x in position pairs there since
#    session 102), bf16: L2-61's forward (0.753 ms verified) and fam06's (1.169). Predicted: a gain like TF32's (-8 to
#    -10 % of the conv), less where the k16 wgmmas already leave the tensor pipe waiting on shared memory.
# 4. Source counters of L2-61's TF32 conv on the persistent kernel: do the MMA warpgroups wait on full[] (the producer
#    too slow: x prefetched two stages ahead in registers) or on their store?
# 5. The TF32 suite's rows in what is left (contiguous; its last full run predates sessions 97-102's kernels).
source scripts/device_prelude.sh
left 250 && gpu_tests 170 specialized_64 tests/test_conv_transpose_gpu.py "unit_stride_specialized_64_switch"
small='import torch, tconv
x = torch.randn(1, 64, 6, 8, 33, device="cuda"); w = torch.randn(64, 64, 3, 3, 3, device="cuda")
with tconv._ops.use_algorithm("igemm_strip"):
    y = tconv.conv_transpose3d(x, w, torch.randn(64, device="cuda"), padding=1)
torch.cuda.synchronize(); print("persistent 64-channel forward ran", tuple(y.shape))'
ok_64=0
grep -q "1 passed" "$LOG/specialized_64.log" && ok_64=1
for tool in memcheck racecheck; do
  [ $ok_64 = 1 ] && left 330 && TCONV_UNIT_STRIDE_PERSISTENT=3 TCONV_UNIT_STRIDE_SPECIALIZED_64=1 timeout 40 \
    compute-sanitizer --tool $tool --kernel-name kns=unit_stride_forward python3 -c "$small" \
    > "$LOG/${tool}_64.log" 2>&1
  tail -2 "$LOG/${tool}_64.log" 2>/dev/null
done
l2=l2_61_convt3d_relu_groupnorm
for v in 0 1; do left 380 && quick_time "persistent_$v" $l2 tf32 auto TCONV_UNIT_STRIDE_PERSISTENT=$v; done
breakdowns_ab 440 TCONV_UNIT_STRIDE_PERSISTENT "0 1" "unit_stride_forward|total" tf32 contiguous $l2
for v in 0 1; do
  left 460 && quick_time "persistent_$v" fam06_convt2d_k3x5_128x256 tf32 auto TCONV_UNIT_STRIDE_PERSISTENT=$v
done
if [ $ok_64 = 1 ]; then
  breakdowns_ab 540 TCONV_UNIT_STRIDE_SPECIALIZED_64 "0 1" "unit_stride_forward|total" tf32 contiguous $l2
  for v in 0 1; do
    left 560 && quick_time "specialized_64_$v" fam03_convt3d_k3_64x64x64 tf32 auto TCONV_UNIT_STRIDE_SPECIALIZED_64=$v
  done
fi
device_finish
# A third call: the bf16 specialized A/B, the source counters, then the TF32 suite's rows.
#   for problem in $l2 fam06_convt2d_k3x5_128x256; do
#     for v in 1 2; do quick_time "specialized_$v" $problem bf16 auto TCONV_UNIT_STRIDE_SPECIALIZED=$v; done
#   done
#   TCONV_UNIT_STRIDE_PERSISTENT=1 ncu_source_kernel 330 l2_61_tf32_persistent $l2 tf32 contiguous \
#     strip_unit_stride_forward
#   bench_budget 590 tf32 contiguous l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256 \
#     fam03_convt3d_k3_64x64x64 l1_68_convt3d_square_input_asym_kernel l1_73_convt3d_strided_padded_grouped ...
