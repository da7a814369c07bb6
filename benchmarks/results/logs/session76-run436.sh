#!/usr/bin/env bash
# Session 76, run 436 (one H200). Run at the commit that adds this name, passed as TCONV_COMMIT.
# Run 435: on TF32 the shifted-x grad_weight's narrow form (6 stages of 32-channel grad_output rows) took L1-71 fwd+bwd
# 2.426 -> 2.162 ms and fam11 4.632 -> 4.132; not sliding the rows took L1-71 to 2.256, fam11 4.190, fam01 11.444 ->
# 10.764, fam05 5.341 -> 4.853: the producer's lookahead limits the kernel. This commit makes both the rule for fp32
# data (narrow where it fits, no sliding). Here:
# 1. the narrow test (rule = forced) and the new slide test (bits equal sliding, not, rule; contract under both);
# 2. TF32 fwd+bwd, the rule against sliding with it (SLIDE=1) on the suite's shifted-x rows (is not sliding better
#    everywhere, L1-68 included: run 187 had sliding ahead there, 23.86 against 24.99 ms), and against the wide rows
#    not sliding (NARROW=0) on L1-71 and fam11 (do the two add up?);
# 3. bf16 fwd+bwd, the rule (sliding) against SLIDE=0: does 16-bit data gain from not sliding too?
source scripts/device_prelude.sh
left 300 && timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "shifted_x_narrow or shifted_x_slide" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -12
qt() {  # label, precision, env assignments..., then the problems after --
  local label="$1" precision="$2"; shift 2
  local envs=() ; while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  left 540 && (cd scripts && env "${envs[@]}" timeout 120 python3 quick_timing.py "$@" --precision "$precision" \
    --runs 10 --warmup 2 2>&1 | grep -v Warn | sed "s/^/$label /")
}
tf32_rows="l1_71_convt2d_asym_input_square_kernel fam11_convt2d_k3x7_p1x3_512x1024 fam01_convt2d_k3_1024x1024
  fam05_convt2d_k3x7_512x512 fam06_convt2d_k3x5_128x256 l1_68_convt3d_square_input_asym_kernel
  l2_61_convt3d_relu_groupnorm fam02_convt3d_k3x5x7_16x32x64 fam03_convt3d_k3_64x64x64"
{
  qt rule tf32 TCONV_X=0 -- $tf32_rows
  qt slide1 tf32 TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE=1 -- $tf32_rows
  qt wide_slide0 tf32 TCONV_GRAD_WEIGHT_SHIFTED_X_NARROW=0 -- l1_71_convt2d_asym_input_square_kernel \
    fam11_convt2d_k3x7_p1x3_512x1024
  bf16_rows="l1_71_convt2d_asym_input_square_kernel fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512
    l1_68_convt3d_square_input_asym_kernel l2_61_convt3d_relu_groupnorm fam02_convt3d_k3x5x7_16x32x64"
  qt rule bf16 TCONV_X=0 -- $bf16_rows
  qt slide0 bf16 TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE=0 -- $bf16_rows
} | tee "$LOG/timing.log"
device_finish
