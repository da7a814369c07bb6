#!/usr/bin/env bash
# Session 62, run 383 (one H200): the persistent unit-stride forward (TCONV_UNIT_STRIDE_PERSISTENT=1, written this
# session after run 382 put the once-per-tile cost at 30-49 % of the unit-stride forwards).
# 1. With the switch on: the unit-stride forward and grad_input grids (fp32/TF32, fp16, bf16; outputs and every
#    gradient against float64 and torch, poisoned outputs), the kernel-choice tests, the bitwise test against the
#    per-tile kernel (two processes); with it off: the kernel-choice test. memcheck on the many-tile cases.
# 2. A/B (1 / 0, alternating processes) of fwd and fwd+bwd on the suite rows whose forward or grad_input runs the
#    weights-as-A tiles, TF32 and bf16.
# 3. The fixed-cost sweep with the switch on (run 382 had it off). Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
left() { [ $(( $(date +%s) - start )) -lt "$1" ]; }
TCONV_UNIT_STRIDE_PERSISTENT=1 timeout 150 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k \
  "strip_unit_stride or unit_stride_persistent or unit_stride_tap_pairs or unit_stride_x_pairs or where_planned" \
  2>&1 | tail -4 | tee "$LOG/pytest_persistent.log"
timeout 30 python3 -m pytest -q tests/test_conv_transpose_gpu.py -k "unit_stride_persistent_where" 2>&1 | tail -2 \
  | tee -a "$LOG/pytest_persistent.log"
echo "== memcheck at $(( $(date +%s) - start )) s"
left 330 && TCONV_UNIT_STRIDE_PERSISTENT=1 timeout 80 compute-sanitizer --tool memcheck --print-limit 5 python3 -m \
  pytest -q tests/test_conv_transpose_gpu.py -k "test_strip_unit_stride_forward and (u18 or u19 or u20) and bf16" \
  2>&1 | tail -4 | tee "$LOG/memcheck_persistent.log"
echo "== A/B at $(( $(date +%s) - start )) s"
left 420 && OUT="$LOG" SWITCH=TCONV_UNIT_STRIDE_PERSISTENT VALUES="1 0" ROUNDS=2 PRECISIONS="tf32" timeout 110 \
  bash scripts/device_switch_ab.sh fam04_convt1d_k3_65536 fam01_convt2d_k3_1024x1024 fam06_convt2d_k3x5_128x256 \
  fam05_convt2d_k3x7_512x512 fam11_convt2d_k3x7_p1x3_512x1024 l2_61_convt3d_relu_groupnorm 2>&1 | grep -v Warn \
  | tee "$LOG/timing_persistent.log"
left 520 && mkdir -p "$LOG/bf16" && OUT="$LOG/bf16" SWITCH=TCONV_UNIT_STRIDE_PERSISTENT VALUES="1 0" ROUNDS=1 \
  PRECISIONS="bf16" timeout 40 bash scripts/device_switch_ab.sh fam04_convt1d_k3_65536 fam06_convt2d_k3x5_128x256 \
  2>&1 | grep -v Warn | tee -a "$LOG/timing_persistent.log"
echo "== fixed cost at $(( $(date +%s) - start )) s"
left 560 && (cd scripts && TCONV_UNIT_STRIDE_PERSISTENT=1 timeout 30 python3 unit_stride_fixed_cost.py --runs 10 \
  --only fam04 fam06 --json "$LOG/fixed_cost_persistent.json" 2>&1 | grep -v Warn) | tee "$LOG/fixed_cost.log"
device_finish
