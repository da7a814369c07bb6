#!/usr/bin/env bash
# Session 94's fifth GPU call, run 504 (one H200, the session's last ~400 s of device time). The TMA grad_weight's
# timing probes (TCONV_PROBE_GRAD_WEIGHT_TMA, bf16: 1 its loads alone, 2 its MMAs alone; NaN gradients, said on
# stderr), written after run 503: runs 501-502 found the MMA warps waiting on full stages (54 % of samples) and the
# SMs taking 5.79 TB/s from L2 (~23 B a clock an SM). Predictions, DCGAN's pass (0.185 ms): if delivery bounds it,
# loads alone ~0.18 ms and MMAs alone well under (the MMAs at the tensor peak would take ~0.07 ms); fam06 (one box,
# 2.717 ms in run 497) the same way. Kernel breakdowns of DCGAN, fam06 and VAE (bf16 channels-last) under 0 / 1 / 2;
# then the probes' test (NaN grad_weight, exact grad_input, their own kernels) while the call has time.
source scripts/device_prelude.sh
for problem in real_dcgan_up fam06_convt2d_k3x5_128x256 real_vae_up; do
  for probe in 0 1 2; do
    left 265 && TCONV_PROBE_GRAD_WEIGHT_TMA=$probe timeout 40 python3 scripts/kernel_breakdown.py $problem \
      --precision bf16 --layout channels_last --iters 2 2>&1 | grep -v Warn | sed "s/^==/== probe_$probe/" \
      >> "$LOG/breakdown.log"
  done
done
grep -E "^== probe|grad_weight_tma|tconv: TCONV_PROBE" "$LOG/breakdown.log" 2>/dev/null | cut -c1-150
left 285 && gpu_tests 60 probes tests/test_grad_weight_tma_gpu.py "probes_say"
device_finish
