#!/usr/bin/env bash
# Session 113's second call (run 564), one H100 (or H200), cold; TCONV_COMMIT=<full sha>, END_S=<seconds it may run>.
# Run 563 measured the fp32 channels-last form of the unit-stride mma.sync kernel
# (TCONV_UNIT_STRIDE_MMA_CHANNELS_LAST_FP32=1): its tests passed, L1-71 TF32 channels_last fwd 3.592 -> 0.683 ms,
# fwd+bwd 8.912 -> 3.237. It is now the default for fp32 (0 turns it off). This call:
# 1. The switch test (now the default against 0: 0 launches and a refusal under 0), the refusal and where-planned
#    tests under the default; memcheck + racecheck of a forward with C_out 40 (a partial last tile) and of a
#    fwd+bwd with C_in = C_out = 32 (run 563's workload had C_out 40, so its grad_input was refused and went
#    unsanitized). Predicted: pass, 0 errors.
# 2. L1-71 TF32 channels_last quick timing under the default. Predicted: fwd ~0.68 ms, fwd+bwd ~3.24 (run 563).
# 3. Every fp32 channels-last conv test under the new default (TF32 ones included: "auto" may route more of them to
#    the kernel now). Predicted: pass.
# 4. The TF32 channels_last suite from L1-71 on, while the call has time (SUITE="<rows>" to pick others).
source scripts/device_prelude.sh
end=${END_S:-540}
l71=l1_71_convt2d_asym_input_square_kernel
left $(( end - 150 )) && gpu_tests 150 mma_cl_default tests/test_conv_transpose_gpu.py \
  "mma_channels_last_tf32_where_switched or unit_stride_mma_runs_and_refuses or unit_stride_mma_where_planned"
if left $(( end - 100 )); then
  cat > /tmp/mma_cl_fp32.py <<'PY'
import torch, tconv
from tconv.harness.precision import precision_mode
for cout, backward in ((40, False), (32, True)):
    x = torch.randn(1, 32, 9, 70, device="cuda").contiguous(memory_format=torch.channels_last).requires_grad_()
    w = torch.randn(32, cout, 3, 3, device="cuda", requires_grad=True)
    b = torch.randn(cout, device="cuda")
    with precision_mode("tf32"), tconv._ops.use_algorithm("unit_stride_mma"):
        out = tconv.conv_transpose2d(x, w, b, padding=1)
        if backward:
            grad_x, = torch.autograd.grad(out, [x], torch.randn_like(out))
    ref = torch.nn.functional.conv_transpose2d(x.double(), w.double(), b.double(), padding=1)
    print(f"mma channels-last fp32 sanitize workload C_out {cout} backward {backward}: output max error / max",
          f"{((out.double() - ref).abs().max() / ref.abs().max()).item():.2e}")
PY
  for tool in memcheck racecheck; do
    timeout 60 compute-sanitizer --tool $tool --kernel-name kns=unit_stride_mma python3 /tmp/mma_cl_fp32.py \
      > "$LOG/${tool}_mma_cl.log" 2>&1
    grep -E "workload|SUMMARY|Error" "$LOG/${tool}_mma_cl.log" | head -6
  done
fi
left $(( end - 45 )) && LAYOUT=channels_last quick_time default $l71 tf32 auto | tee -a "$LOG/quick.log"
left $(( end - 200 )) && gpu_tests 200 cl_fp32 tests/test_conv_transpose_gpu.py \
  "channels_last and not bf16 and not fp16"
bench_budget $end tf32 channels_last ${SUITE:-l1_71_convt2d_asym_input_square_kernel \
  l1_72_convt3d_asym_kernel_strided_padded_grouped l2_61_convt3d_relu_groupnorm fam01_convt2d_k3_1024x1024 \
  fam02_convt3d_k3x5x7_16x32x64 fam04_convt1d_k3_65536 fam05_convt2d_k3x7_512x512}
device_finish
