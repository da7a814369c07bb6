#!/usr/bin/env bash
# Prepared in session 109 as its run 551, which never ran (six starts failed); session 110 runs it as run 551 with
# TCONV_COMMIT=<full sha> and END_S=<seconds the call may run>. One H100 or
# H200, cold. Run 550 (H100, 14ad132): session 108's statistics from the MMA
# warpgroups' accumulators passed their 56 tests but cost the conv kernel 0.887 -> 1.015 ms on L2-61 TF32, as much as
# the statistics pass (0.126): forward 1.256 -> 1.271 ms, bf16 0.760 -> 0.763. The exact split (3x K on the TF32
# kernels): L2-61 exact forward 5.313 -> 2.922 ms, fam06 8.994 -> 4.863, but 11 grid cases and the long-K cases missed
# the elementwise allclose(1e-4) the exact kernels meet (up to 1.6e-3): it stays off.
# This commit: the statistics made by the producer warpgroup from the staged tile while the MMA warpgroups store it
# (staged_group_stats; the stats kernels 168 -> 154-156 registers), for every activation now (GELU, SiLU, Tanh,
# Sigmoid too: the producer's registers are free).
# 1. The store-statistics tests (74: three activation cases more). Predicted: pass.
# 2. L2-61 A/B (TCONV_CONV_STORE_STATISTICS 0 / 1): TF32 kernel breakdown, quick timing TF32 and bf16. Predicted: the
#    conv kernel +0-3 % (the store ~5 us a tile hides the producer's ~1.5 us of passes), the statistics pass gone:
#    TF32 forward 1.256 -> ~1.15 ms.
# 3. If the TF32 forward wins: L2-61's verified rows, TF32 then bf16, under the switch (the row records it).
# 4. The exact split's tests against the harness's rule (fp32_violations <= 1), whether it is fp32-grade at all (the
#    long-K cases, the kernel's, and run 550's failing grid cases).
source scripts/device_prelude.sh
# END_S: the seconds this call may run (the device budget left, when under the per-call limit); the parts scale to it.
end=${END_S:-590}
l2=l2_61_convt3d_relu_groupnorm
# In order of need: the tests, the TF32 A/B, the exact split's tests, then the diagnostics and rows as time allows.
left $(( end - 100 )) && gpu_tests 60 store_stats tests/test_fused_gpu.py "conv_store"
for v in 0 1; do
  left $(( end - 45 )) && quick_time "store_stats_$v" $l2 tf32 auto TCONV_CONV_STORE_STATISTICS=$v | tee -a "$LOG/quick.log"
done
left $(( end - 50 )) && gpu_tests 45 exact_split tests/test_exact_split_gpu.py \
  "kernel or planned or k0 or k1 or k2 or (contiguous and (g14 or g15 or g19 or g24 or g30))"
breakdowns_ab $end TCONV_CONV_STORE_STATISTICS "0 1" "unit_stride_forward|stats_channels|finalize|total" tf32 \
  contiguous $l2
for v in 0 1; do
  left $(( end - 45 )) && quick_time "store_stats_$v" $l2 bf16 auto TCONV_CONV_STORE_STATISTICS=$v | tee -a "$LOG/quick.log"
done
wins=$(python3 - "$LOG/quick.log" <<'PY'
import re, sys
fwd = {}
for line in open(sys.argv[1]):
    m = re.match(r"store_stats_(\d) \S+\s+tf32\s+\S+\s+fwd\s+([\d.]+)", line)
    if m: fwd[m.group(1)] = float(m.group(2))
print(1 if "0" in fwd and "1" in fwd and fwd["1"] < fwd["0"] else 0)
PY
)
echo "store statistics win the TF32 forward: $wins"
if [ "$wins" = 1 ]; then
  TCONV_CONV_STORE_STATISTICS=1 bench_budget $end tf32 contiguous $l2
fi
device_finish
