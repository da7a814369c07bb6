#!/usr/bin/env bash
# Prepared in session 57 for the next session's first GPU call (rename to sessionNN-runMMM.sh when it runs).
# 0. The 256-column gather tile's grid rule (gather_widest_fills, written after session 57's device time: a call
#    whose 128-column grid fits in one wave keeps 128 columns; TCONV_GATHER_WIDEST=2 forces 256): the widest tests
#    (bitwise 2 against 0 in three dtypes, the rule's kernel choice), the contract under 2, memcheck under 2, and
#    scripts/widest_rule_timing.py under 0 / 1 / 2 (DCGAN generator's first layers, grids of ~1-4 waves).
# 1. The rows grad_weight kernel on 3D problems (TCONV_GRAD_WEIGHT_ROWS_3D=1, off by default, written in session 57
#    without a GPU: the planner's kD = 1 condition lifted; no kernel code changed): its contract and kernel-name test
#    in both switch values, memcheck, then a same-build A/B on U-Net 3D (grad_weight 0.542 ms on the mma.sync kernel,
#    run 359; VAE's twice-larger 2D GEMM takes 0.520 on the rows kernel) and the U-Net block, two rounds, with
#    U-Net's kernel census under the switch.
# (The bf16 census and grad_weight A/B are next-session-second-run.sh.)
# Pass TCONV_COMMIT=<sha from the development machine>.
source scripts/device_prelude.sh
timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_widest_gpu.py -k "not 1-float16" 2>&1 \
  | tee "$LOG/pytest_widest.log" | tail -2
TCONV_GATHER_WIDEST=2 timeout 60 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_gather_widest_gpu.py \
  -k meets 2>&1 | tee "$LOG/pytest_widest_contract.log" | tail -2
TCONV_GATHER_WIDEST=2 TCONV_GATHER_TMA=0 timeout 90 compute-sanitizer --tool memcheck --print-limit 20 \
  --show-backtrace no python3 scripts/gather_widest_sanitize.py float32 bfloat16 > "$LOG/memcheck_widest.log" 2>&1
echo "memcheck widest rc $?: $(tail -1 "$LOG/memcheck_widest.log")"
for v in 0 1 2; do
  TCONV_GATHER_WIDEST=$v TCONV_GATHER_TMA=0 timeout 60 python3 scripts/widest_rule_timing.py 2>&1 \
    | tee -a "$LOG/widest_rule_timing.log"
done
echo "rows 3D at $(( $(date +%s) - start )) s"
timeout 200 python3 -m pytest -q -rfE -p no:cacheprovider tests/test_grad_weight_rows_3d_gpu.py 2>&1 \
  | tee "$LOG/pytest_rows_3d.log" | tail -3
TCONV_GRAD_WEIGHT_ROWS_3D=1 timeout 90 compute-sanitizer --tool memcheck --print-limit 20 --show-backtrace no \
  python3 scripts/grad_weight_rows_3d_sanitize.py > "$LOG/memcheck_rows_3d.log" 2>&1
echo "memcheck rows 3D rc $?: $(tail -1 "$LOG/memcheck_rows_3d.log")"
OUT="$LOG" SWITCH=TCONV_GRAD_WEIGHT_ROWS_3D VALUES="1 0" ROUNDS=2 PRECISIONS=tf32 timeout 150 \
  bash scripts/device_switch_ab.sh real_unet3d_up real_unet3d_up_block 2>&1 | cut -c1-170 | tee "$LOG/timing.log"
(cd scripts
 TCONV_GRAD_WEIGHT_ROWS_3D=1 timeout 40 python3 kernel_breakdown.py real_unet3d_up --precision tf32 --iters 1 \
   --json "$LOG/kernels_unet_rows3d.json" > "$LOG/kernels_unet_rows3d.log" 2>&1
 grep -A5 "^== " "$LOG/kernels_unet_rows3d.log" | cut -c1-150
)
device_finish
