#!/usr/bin/env bash
# Session 69, run 408 (prepared in session 68 as its next first run; one H200).
# 1. The 48-channel 16-bit stages (TCONV_UNIT_STRIDE_STAGE_48, off by default, compiled but never run on a GPU): 1 on
#    the tap-pairs half tiles (fam07's forward), 2 also on the 64-channel tiles as 256-row blocks, 3 those on the half
#    tile with one wgmma group in flight (fam03's forward and grad_input, 48 -> 48). The unit-stride GPU tests, among
#    them test_unit_stride_stage_48_where_switched (names and the contract under 1, 2, 3 and 0).
# 2. quick_timing, two interleaved rounds: fam07 bf16 under 0 / 1 (48 -> 24 in pairs: C_in 48 in two 32-channel
#    stages, a quarter of its MMAs on zeros); fam03 bf16 under 0 / 2 / 3 (fp16 runs the same kernels' fp16 forms,
#    which the tests cover). A win makes it the default where it won.
# 3. memcheck of sanitize_small.py's unit-stride kernels under 2 and under 3 (each covers 1's kernels too).
# 4. Where fam02's bf16 fwd+bwd goes (kernel_breakdown, ours and eager's): its row is 0.85x eager (2.218 ms against
#    1.877; eager's backward ~1.17 ms, ours ~1.76).
# test_gather_widest_gpu.py (not finished on a GPU since session 67's swap rule; >100 s) does not fit here: the
# next call.
# Pass TCONV_COMMIT=<literal sha> (not $(git rev-parse HEAD): the device's copy answers with an older HEAD).
# Each part starts only if its timeout ends by ~570 s, so device_finish always runs.
source scripts/device_prelude.sh
timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_conv_transpose_gpu.py -k "unit_stride" --tb=short \
  > "$LOG/pytest.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$LOG/pytest.log" | tail -12
echo "== timing at $(( $(date +%s) - start )) s"
for round in 1 2; do
  for on in 0 1; do
    left 470 && (cd scripts && TCONV_UNIT_STRIDE_STAGE_48=$on timeout 40 python3 quick_timing.py \
      fam07_convt3d_k3_96x96x96 --precision bf16 --runs 8 --warmup 2 \
      --json "$LOG/stage48_fam07_r${round}_$on.json" 2>&1 | grep -v Warn | sed "s/^/R$round STAGE_48=$on /") \
      | tee -a "$LOG/timing_stage48.log"
  done
  for on in 0 2 3; do
    left 490 && (cd scripts && TCONV_UNIT_STRIDE_STAGE_48=$on timeout 25 python3 quick_timing.py \
      fam03_convt3d_k3_64x64x64 --precision bf16 --runs 8 --warmup 2 \
      --json "$LOG/stage48_fam03_r${round}_$on.json" 2>&1 | grep -v Warn | sed "s/^/R$round STAGE_48=$on /") \
      | tee -a "$LOG/timing_stage48.log"
  done
done
for on in 2 3; do
  left 500 && TCONV_UNIT_STRIDE_STAGE_48=$on timeout 70 compute-sanitizer --tool memcheck \
    --kernel-name kns=unit_stride_forward python3 tests/sanitize_small.py > "$LOG/memcheck_$on.log" 2>&1
  [ -f "$LOG/memcheck_$on.log" ] && tail -1 "$LOG/memcheck_$on.log" | sed "s/^/STAGE_48=$on /"
done
left 540 && (cd scripts && timeout 30 python3 kernel_breakdown.py fam02_convt3d_k3x5x7_16x32x64 --precision bf16 \
  --iters 3 --json "$LOG/census_fam02_bf16.json" > "$LOG/census.log" 2>&1); grep -v Warn "$LOG/census.log" | head -20
left 550 && (cd scripts && timeout 20 python3 kernel_breakdown.py fam02_convt3d_k3x5x7_16x32x64 --precision bf16 \
  --iters 3 --model original --json "$LOG/census_fam02_bf16_eager.json" > "$LOG/census_eager.log" 2>&1)
[ -f "$LOG/census_eager.log" ] && grep -v Warn "$LOG/census_eager.log" | head -14
device_finish
