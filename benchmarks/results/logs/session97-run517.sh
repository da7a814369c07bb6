#!/usr/bin/env bash
# Session 97, run 517 (one H200; cold unless run 516's machine is still held). Run as
# TCONV_COMMIT=<sha> bash benchmarks/results/logs/session97-run517.sh
# Run 516's breakdowns: L1-73's bf16 channels-last fwd+bwd (5.09 ms of kernels, 0.82x eager) is the grouped mma.sync
# kernels (grad_weight 2.44, forward lines 1.51, grad_input 1.13) against a memory floor of ~0.12 ms a pass; fam09's
# the same kernels (1.42 / 0.71 / 0.55). A grouped call equals the dense call on the block-diagonal weight (groups x
# the multiply-adds, on the many-channel tensor-core paths). scripts/grouped_dense_probe.py times both forms per pass
# through tconv's ops and checks the dense results against the grouped ones: bf16 channels-last, then contiguous.
# Then L2-61's TF32 kernel breakdown (issue 5: where its 1.27 ms forward and 4.70 ms fwd+bwd go now).
source scripts/device_prelude.sh
left 200 && timeout 150 python3 scripts/grouped_dense_probe.py --layout channels_last --json "$LOG/dense_cl.json" \
  2>&1 | grep -v Warn | tee "$LOG/dense_probe.log"
left 330 && timeout 120 python3 scripts/grouped_dense_probe.py --layout contiguous --json "$LOG/dense_contig.json" \
  2>&1 | grep -v Warn | tee -a "$LOG/dense_probe.log"
# (L2-61 TF32 breakdown: ran in the first attempt, which failed in the probe on a field name)
device_finish
