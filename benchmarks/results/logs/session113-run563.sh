#!/usr/bin/env bash
# Prepared in session 112 for the next session's first call (run 563), one H100 (or H200), cold; TCONV_COMMIT=<full
# sha>, END_S=<seconds it may run> (540 on a cold call: the build takes 150-230 s of it).
# Session 112 made TF32 channels_last take the unit-stride wgmma kernel with its channels-last access (runs 560-562,
# H100: L2-61 CL fwd 3.766 -> 1.432 ms, fwd+bwd 10.853 -> 5.775; fam03 6.268 -> 2.552, 15.476 -> 8.351; contiguous
# kernels back to 0.984 / 1.095 once the access became instantiations of its own). Run 561's TF32 channels_last bench
# found L1-71 at 0.20x / 0.49x eager (fwd 3.614 ms against cuDNN's 0.708): K 288 leaves it on the cp.async gather
# kernel (3.5 ms a pass; the unit-stride wgmma at K 288 ran 2.615, run 562). Session 112 wrote, untested on a GPU,
# an fp32 channels-last form of the unit-stride mma.sync kernel (TCONV_UNIT_STRIDE_MMA_CHANNELS_LAST_FP32=1): the
# kernel L1-71 runs contiguous (0.70 ms), reading channels-last windows straight into its MMA layout.
# 1. Under the switch: its test (contract over UNIT_STRIDE_MMA_CL_GRID both grad layouts, the stores, auto's
#    launches, bitwise against contiguous) and memcheck + racecheck of one L1-71-like call. Predicted: pass, 0 errors.
#    (with the refusal and where-planned tests, whose channels-last TF32 lines follow it); then the kernel's other
#    tests under the defaults (session 112 moved its three stores onto one fragment walk, stage_half).
# 2. L1-71 TF32 channels_last quick timing, switch unset / 1, and the breakdown under 1. Predicted: forward 3.59 ->
#    0.65-0.8 ms (contiguous 0.70 on this kernel; one window, the other block covering the copy), fwd+bwd 8.9 ->
#    ~3.2 (grad_weight stays the mma.sync TF32 kernel, 1.9 ms).
# 3. The sanitizers, the kernel's other tests and the other channels-last tests where time remains (a cold call's
#    build leaves room for items 1-2 only), then source counters of L2-61's channels-last grad_input (the
#    unit-stride kernel's second launch of a fwd+bwd: 1.524 ms against the forward's 1.149; are its 16-byte x loads
#    the bound?), then the TF32 channels_last suite under the defaults (run 561 reached 3 rows). Rerun warm with
#    SECOND=1 (items 3 on; SUITE="<rows>" to resume the suite).
source scripts/device_prelude.sh
end=${END_S:-540}
l71=l1_71_convt2d_asym_input_square_kernel
l2=l2_61_convt3d_relu_groupnorm
sw=TCONV_UNIT_STRIDE_MMA_CHANNELS_LAST_FP32
if [ -z "${SECOND:-}" ]; then
  left $(( end - 120 )) && (export $sw=1; gpu_tests 120 mma_cl_fp32 tests/test_conv_transpose_gpu.py \
    "mma_channels_last_tf32_where_switched or unit_stride_mma_runs_and_refuses or unit_stride_mma_where_planned")
  for setting in "$sw=" "$sw=1"; do
    left $(( end - 45 )) && LAYOUT=channels_last quick_time "$setting" $l71 tf32 auto $setting | tee -a "$LOG/quick.log"
  done
  breakdowns_ab $end $sw "1" "unit_stride_mma|gather|grad_weight|total" tf32 channels_last $l71
fi
if left $(( end - 100 )); then
  cat > /tmp/mma_cl_fp32.py <<'PY'
import torch, tconv
x = torch.randn(1, 32, 9, 70, device="cuda").contiguous(memory_format=torch.channels_last).requires_grad_()
w = torch.randn(32, 40, 3, 3, device="cuda", requires_grad=True)
b = torch.randn(40, device="cuda")
with tconv._ops.use_algorithm("unit_stride_mma"):
    out = tconv.conv_transpose2d(x, w, b, padding=1)
    grad_x, = torch.autograd.grad(out, [x], torch.randn_like(out))
ref = torch.nn.functional.conv_transpose2d(x.double(), w.double(), b.double(), padding=1)
print("mma channels-last fp32 sanitize workload: output max error / max",
      f"{((out.double() - ref).abs().max() / ref.abs().max()).item():.2e}")
PY
  for tool in memcheck racecheck; do
    env $sw=1 timeout 50 compute-sanitizer --tool $tool --kernel-name kns=unit_stride_mma python3 /tmp/mma_cl_fp32.py \
      > "$LOG/${tool}_mma_cl.log" 2>&1
    tail -2 "$LOG/${tool}_mma_cl.log"
  done
fi
# session 112 also moved the kernel's three stores onto one fragment walk (stage_half): its other tests, defaults
left $(( end - 120 )) && gpu_tests 120 mma_others tests/test_conv_transpose_gpu.py \
  "unit_stride_mma and not grad_weight and not where_switched"
# the other channels-last tests that "auto" may now route to the unit-stride kernel (fp32 ids without "tf32")
left $(( end - 150 )) && gpu_tests 150 cl_others tests/test_conv_transpose_gpu.py \
  "channels_last and not bf16 and not fp16 and not (tf32 and channels_last)"
left $(( end - 100 )) && gpu_tests 100 cl_tma tests/test_gather_tma_gpu.py "channels_last"
if left $(( end - 100 )); then
  timeout 100 ncu --clock-control none -k "regex:unit_stride_forward" --launch-skip 1 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --import-source no --page source --print-source sass --csv \
    python3 scripts/quick_timing.py $l2 --precision tf32 --runs 1 --warmup 1 --layout channels_last \
    > "$LOG/src_l2_61_cl_grad_input.csv" 2> "$LOG/src_l2_61_cl_grad_input.err"
  gzip -f "$LOG/src_l2_61_cl_grad_input.csv"
  python3 scripts/ncu_source_summary.py "$LOG/src_l2_61_cl_grad_input.csv.gz" --top 12 \
    > "$LOG/src_l2_61_cl_grad_input.summary.txt" 2>&1
  head -30 "$LOG/src_l2_61_cl_grad_input.summary.txt" | cut -c1-150
fi
bench_budget $end tf32 channels_last ${SUITE:---suite all}
device_finish
