#!/usr/bin/env bash
# Prepared in session 68 for the next session's first GPU call (one H200; rename to sessionNN-runMMM.sh when it runs).
# 1. The 48-channel 16-bit stages (TCONV_UNIT_STRIDE_STAGE_48=1, off by default, compiled but never run on a GPU:
#    dc7a050): its test (kernel names under 1 and 0, the contract in both) with the other unit-stride tests; memcheck
#    of sanitize_small.py's unit-stride kernels with the switch on (its 48-channel tap-pairs cases).
# 2. quick_timing under the switch 0 / 1, two interleaved rounds: fam07 bf16 and fp16 (the forward, 48 -> 24 in tap
#    pairs on the half tile: C_in 48 in two 32-channel stages, a quarter of its MMAs on zeros). A win makes it the
#    default (and the 256-row tile's 48-channel form the next question: T 5 and 7, K < 1024).
# 3. Where fam02's bf16 fwd+bwd goes (kernel_breakdown): its row is 0.85x eager (2.218 ms against 1.877; eager's
#    backward ~1.17 ms, ours ~1.76), the suite's lowest bf16 fwd+bwd apart from DCGAN and HiFi-GAN.
# 4. test_gather_widest_gpu.py, which no run has finished at session 67's swap rule.
# Pass TCONV_COMMIT=<literal sha> (not $(git rev-parse HEAD): the device's copy answers with an older HEAD).
# Each part starts only if its timeout ends by ~570 s, so device_finish always runs.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
timeout 130 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "unit_stride" --tb=short \
  > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest.log" | tail -12
left 380 && TCONV_UNIT_STRIDE_STAGE_48=1 timeout 100 compute-sanitizer --tool memcheck \
  --kernel-name kns=unit_stride_forward python3 tests/sanitize_small.py > "$LOG/memcheck.log" 2>&1
tail -2 "$LOG/memcheck.log"
echo "== timing at $(( $(date +%s) - start )) s"
for round in 1 2; do
  for on in 0 1; do
    left 500 && (cd scripts && TCONV_UNIT_STRIDE_STAGE_48=$on timeout 45 python3 quick_timing.py \
      fam07_convt3d_k3_96x96x96 --precision bf16 fp16 --runs 8 --warmup 2 \
      --json "$LOG/stage48_r${round}_$on.json" 2>&1 | grep -v Warn | sed "s/^/R$round STAGE_48=$on /") \
      | tee -a "$LOG/timing_stage48.log"
  done
done
left 530 && (cd scripts && timeout 30 python3 kernel_breakdown.py fam02_convt3d_k3x5x7_16x32x64 --precision bf16 \
  --iters 3 --json "$LOG/census_fam02_bf16.json" > "$LOG/census.log" 2>&1); grep -v Warn "$LOG/census.log" | head -20
left 545 && (cd scripts && timeout 25 python3 kernel_breakdown.py fam02_convt3d_k3x5x7_16x32x64 --precision bf16 \
  --iters 3 --model original --json "$LOG/census_fam02_bf16_eager.json" > "$LOG/census_eager.log" 2>&1)
grep -v Warn "$LOG/census_eager.log" 2>/dev/null | head -14
left 480 && timeout $(( 570 - $(date +%s) + start )) python3 -m pytest -q -p no:cacheprovider \
  tests/test_gather_widest_gpu.py --tb=short > "$LOG/pytest_widest.log" 2>&1
[ -f "$LOG/pytest_widest.log" ] && { grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest_widest.log" | tail -6; }
device_finish
