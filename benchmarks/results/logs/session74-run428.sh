#!/usr/bin/env bash
# Session 74, run 428 (one H200). Run at the commit that adds this name, passed as TCONV_COMMIT.
# Run 427: the warp-specialized wgmma grad_weight passed its test but did not win on fam05 bf16 (3.090 / 3.095 ms
# fwd+bwd against the plain form's 3.071 / 3.076; kernel 1.406 ms; ncu: barrier stalls 5.77 an issue, tensor 30 %: the
# MMA warps wait for the producer warpgroup), while fam11 forced onto it ran 1.886 ms against mma.sync's 2.041.
# Since then: (1) the producer's grad tile copy hoists its index math (a position's offset once, a C_out's once a tile;
# before, ~30 instructions of index math for each of 64 four-byte pieces a thread); (2) the specialized kernel's
# A fragments from registers (TCONV_UNIT_STRIDE_WGMMA_REGISTER_A=1: ldmatrix once a K step, 7 wgmmas read it; shared
# reads a tile 1 MB -> ~0.43 MB). Predicted: (1) alone, kernel 1.41 -> ~1.0 ms if the producer was the limit; with
# (2) ~0.7-0.8 ms (the tensor pipe's time at m64n32: ~5.4 k cycles a tile of ~20 k now). fam05 fwd+bwd ~2.4-2.7 ms.
# 1. the test (three processes: plain, specialized, specialized with A from registers), 2. fam05 bf16 timing of the
# three forms twice, 3. census and ncu under the register form, 4. fam11 forced onto each form and under "auto".
source scripts/device_prelude.sh
left 330 && timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py --tb=short \
  -k "unit_stride_wgmma_grad_weight" > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|^E  |passed|failed" "$LOG/pytest.log" | cut -c1-300 | tail -10
form_env() {  # plain | specialized | register_a
  case $1 in
    plain) echo "TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED=0 TCONV_UNIT_STRIDE_WGMMA_REGISTER_A=0" ;;
    specialized) echo "TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED=1 TCONV_UNIT_STRIDE_WGMMA_REGISTER_A=0" ;;
    register_a) echo "TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED=1 TCONV_UNIT_STRIDE_WGMMA_REGISTER_A=1" ;;
  esac
}
for round in 1 2; do
  for form in plain specialized register_a; do
    left 430 && (cd scripts && env $(form_env $form) timeout 20 python3 quick_timing.py fam05_convt2d_k3x7_512x512 \
      --precision bf16 --runs 10 --warmup 2 --json "$LOG/t_r${round}_$form.json" 2>&1 | grep -v Warn | sed "s/^/$form /")
  done
done | tee "$LOG/timing.log"
left 450 && (cd scripts && env $(form_env register_a) TCONV_CONCURRENT_BACKWARD=0 timeout 30 python3 \
  kernel_breakdown.py fam05_convt2d_k3x7_512x512 --precision bf16 --iters 3 --json "$LOG/census_fam05.json" 2>&1 \
  | grep -v Warn) > "$LOG/census_fam05.log"
[ -f "$LOG/census_fam05.log" ] && grep -A5 "^==" "$LOG/census_fam05.log" | cut -c1-150
left 490 && env $(form_env register_a) OUT="$LOG" KERNEL=wgmma_grad_weight_specialized \
  CASES="fam05_bf16_register_a:fam05_convt2d_k3x7_512x512:bf16" timeout 70 bash scripts/ncu_stalls.sh 2>&1 | tail -22
for form in auto specialized register_a; do
  forced=1; [ $form = auto ] && forced=-1
  left 570 && (cd scripts && env $(form_env ${form/auto/plain}) TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=$forced timeout 20 \
    python3 quick_timing.py fam11_convt2d_k3x7_p1x3_512x1024 --precision bf16 --runs 10 --warmup 2 2>&1 \
    | grep -v Warn | sed "s/^/fam11 $form /")
done | tee -a "$LOG/timing.log"
device_finish
