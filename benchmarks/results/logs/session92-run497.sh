#!/usr/bin/env bash
# Session 92, run 497 (one H200, cold call; ~800 s of device time left; run 496 was an inline warm call). Run 495: the
# forms test of the TMA grad_weight's development forms (N128, CI64) failed in all four cases with "launch failed:
# invalid argument" at the test script's profiled backward (which of the two processes, "1" or "0", the message did not
# say), while quick timing ran both forms (CI64: fam06 bf16 channels-last fwd+bwd 4.145 -> 3.739 ms; N128's A/Bs were
# host-bound). Here: the probe (each case with x requiring grad or not, profiled or not, each form in its own process,
# relative error of grad_weight against float64), the forms test again (its message now names the switch value and
# case), then kernel breakdowns under each form against the default (N128: DCGAN, VAE, U-Net 3D; CI64: fam06).
source scripts/device_prelude.sh
for form in "TCONV_GRAD_WEIGHT_TMA_N128=1" "TCONV_GRAD_WEIGHT_TMA_CI64=1" "TCONV_GRAD_WEIGHT_TMA_N128=0"; do
  left 300 && env $form TCONV_GRAD_WEIGHT_WINDOW=0 timeout 60 python3 scripts/grad_weight_tma_forms_probe.py bf16 \
    2>&1 | grep -v Warn | tee -a "$LOG/probe.log" | cut -c1-200
done
left 330 && gpu_tests 120 forms tests/test_grad_weight_tma_gpu.py "forms_meet and bf16"
grep -E "N128=|CI64=|^E .*case " "$LOG/forms.log" | head -20 | cut -c1-200
run_breakdowns() {  # LABEL ENV PROBLEM...
  local label="$1" form="$2"; shift 2
  for problem in "$@"; do
    left 560 && env $form timeout 40 python3 scripts/kernel_breakdown.py "$problem" --precision bf16 \
      --layout channels_last --iters 3 2>&1 | grep -v Warn | sed "s/^==/== $label/" >> "$LOG/breakdown.log"
  done
}
run_breakdowns ci64_1 TCONV_GRAD_WEIGHT_TMA_CI64=1 fam06_convt2d_k3x5_128x256
run_breakdowns ci64_0 TCONV_GRAD_WEIGHT_TMA_CI64=0 fam06_convt2d_k3x5_128x256
run_breakdowns n128_1 TCONV_GRAD_WEIGHT_TMA_N128=1 real_dcgan_up real_vae_up real_unet3d_up
run_breakdowns n128_0 TCONV_GRAD_WEIGHT_TMA_N128=0 real_dcgan_up real_vae_up real_unet3d_up
grep -A4 "^==" "$LOG/breakdown.log" | cut -c1-170
device_finish
