#!/usr/bin/env bash
# Session 97, run 515 (one H200, cold; prepared in session 96). Run as
# TCONV_COMMIT=<sha> bash benchmarks/results/logs/session97-run515.sh
# The ping-pong tile (TCONV_TMA_GATHER_PING_PONG=1, development): run 514 hung on it; the turn barrier written after
# that call (a warpgroup waits until the other has waited on every stage of the tile its cursor stepped over) passes
# scripts/ping_pong_ring_model.py's 300 random schedules, but has not run on a GPU.
# 1. a smoke timing of fam06 under it (45 s at most: a hang leaves no timing line, and the rest is skipped);
# 2. its test (bit for bit against the shared tile, the contract under "igemm_tma", its launches), bf16 / fp16;
# 3. racecheck of the ping-pong kernel on scripts/tma_gather_sanitize.py's workload (its fam06-like call);
# 4. kernel breakdowns PING_PONG 0 / 1 on fam06 (bf16 channels-last). Predicted: the forward GEMM 0.95 -> ~0.70-0.75
#    ms (run 513: tensor pipe 65 % active, the epilogue's barriers the top stall);
# 5. fam06's bench row under it.
source scripts/device_prelude.sh
left 200 && LAYOUT=channels_last quick_time ping_pong_1 fam06_convt2d_k3x5_128x256 bf16 auto \
  TCONV_TMA_GATHER_PING_PONG=1 | tee "$LOG/smoke.log"
if grep -q "fwd+bwd" "$LOG/smoke.log"; then
  left 260 && gpu_tests 150 ping_pong tests/test_gather_tma_gpu.py "tma_gather_ping_pong_switch"
  left 420 && TCONV_TMA_GATHER_PING_PONG=1 timeout 90 compute-sanitizer --tool racecheck --kernel-name kns=ping_pong \
    python3 scripts/tma_gather_sanitize.py > "$LOG/racecheck.log" 2>&1; tail -2 "$LOG/racecheck.log"
  breakdowns_ab 500 TCONV_TMA_GATHER_PING_PONG "0 1" "gather_tma16_persistent" bf16 channels_last \
    fam06_convt2d_k3x5_128x256
  left 510 && TCONV_TMA_GATHER_PING_PONG=1 bench_budget 585 bf16 channels_last fam06_convt2d_k3x5_128x256
else
  echo "ping-pong smoke timing gave no line: skipped the rest"
fi
device_finish
