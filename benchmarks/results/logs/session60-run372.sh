#!/usr/bin/env bash
# Session 60, run 372 (one H200). Run 371's autotune sweep found four passes where "auto" is >3 % slower than another
# candidate; this call times them and their neighbours alone (scripts/gather_rule_sweep.py) to set the rules: small K
# on the TF32 wgmma gather (fam13's folded forward, K 32: mma.sync 0.667 ms against 0.802), the W-tap window at 32
# input channels (fam10, fam12), and grad_input on the TMA gather's direct form (no copy) where the copy budget keeps
# DCGAN off it. Then the autotune tests under the new memory rule (a candidate may not allocate past the contract:
# the forced TMA gather's whole copy won DCGAN's grad_input in run 371) and DCGAN's autotune again. Then session 59's
# prepared host_overhead call (U-Net 3D, block, DCGAN; cProfile, entry points, host API, the no-op extension).
# Pass TCONV_COMMIT=<sha>.
source scripts/device_prelude.sh
timeout 60 python3 -m pytest -q -x tests/test_autotune_cpu.py tests/test_conv_transpose_gpu.py -k autotune 2>&1 \
  | tail -4 | tee "$LOG/pytest_autotune.log"
(cd scripts
 echo "== gather rules at $(( $(date +%s) - start )) s"
 timeout 150 python3 gather_rule_sweep.py --precision tf32 bf16 --runs 20 --json "$LOG/gather_rules.json" 2>&1 \
   | grep -v Warn | tee "$LOG/gather_rules.log"
 echo "== DCGAN autotune at $(( $(date +%s) - start )) s"
 timeout 60 python3 quick_timing.py real_dcgan_up --precision tf32 --algorithm autotune --runs 10 2>&1 | grep -v Warn \
   | tee "$LOG/autotune_dcgan.log" | cut -c1-300
 echo "== host overhead at $(( $(date +%s) - start )) s"
 for precision in bf16 tf32; do
   timeout 95 python3 host_overhead.py real_unet3d_up real_unet3d_up_block real_dcgan_up --precision $precision \
     --iters 40 --cprofile 25 --entry-points --host-api 25 2>&1 | grep -v Warn | cut -c1-200
 done
 timeout 45 python3 host_overhead.py real_unet3d_up_block --precision bf16 --iters 40 --noop-extension --cprofile 25 \
   2>&1 | grep -v Warn | cut -c1-200) 2>&1 | tee "$LOG/host_overhead.log" | tail -150
device_finish
