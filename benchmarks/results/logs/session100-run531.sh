#!/usr/bin/env bash
# Session 100, run 531 (one H200, cold; prepared in session 99). Run as
# TCONV_COMMIT=<full sha, typed out> bash benchmarks/results/logs/session100-run531.sh
# Session 99 made fam13's three 16-bit passes one-tap kernels (forward mma.sync 0.300 ms, grad_input 0.090, grad_weight
# 0.096 + 0.008), each moving data at ~1.4-1.7 TB/s, a third of the DRAM rate, and none of them yet under
# compute-sanitizer (issue 4 asks sanitizer runs on every new kernel). So:
# 1. memcheck and racecheck of scripts/one_tap_sanitize.py (every one-tap kernel, 16-byte and scalar paths);
# 2. ncu of fam13's three one-tap kernels in one fwd+bwd (bf16 channels-last): memory throughput, occupancy, warp
#    stalls - what holds each at a third of DRAM (the guess: one stage of loads in flight a block, two blocks an SM).
source scripts/device_prelude.sh
for tool in memcheck racecheck; do
  left 330 && timeout 120 compute-sanitizer --tool $tool --kernel-name kns=one_tap \
    python3 scripts/one_tap_sanitize.py > "$LOG/$tool.log" 2>&1; tail -2 "$LOG/$tool.log"
done
stem=fam13_convt2d_k3_s5_p1_d2_64x128
left 470 && (cd scripts && timeout 90 ncu --clock-control none -k "regex:tconv_one_tap" --launch-skip 1 \
  --launch-count 3 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
  --section WarpStateStats --section LaunchStats python3 -c "
import torch, dev_common
from tconv.harness.precision import precision_mode
from tconv.harness.tensors import to_layout
with precision_mode('bf16'):
    model, inputs = dev_common.build_model('$stem', 'bf16')
    step = dev_common.fwd_bwd_step(model, to_layout(inputs, 'channels_last'))
    step()
    torch.cuda.synchronize()
") > "$LOG/ncu_fam13_one_tap.txt" 2>&1
grep -E "one_tap_[a-z_]*kernel|Duration|Memory Throughput|DRAM Throughput|Achieved Occupancy|Registers Per|Stall" \
  "$LOG/ncu_fam13_one_tap.txt" | cut -c1-140 | head -40
# 3. ncu of L2-61's TF32 forward conv (issue 5: 1.085 ms of its 1.268; the 1.0 ms target needs ~0.82): the
#    wide-rows unit-stride kernel's tensor pipe, shared-memory load and stalls now (run 252's 1.18 ms read 50 % tensor,
#    26 % of stall samples at the stage barrier).
stem=l2_61_convt3d_relu_groupnorm
left 500 && (cd scripts && timeout 80 ncu --clock-control none -k "regex:strip_unit_stride_forward" --launch-skip 1 \
  --launch-count 1 --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
  --section Occupancy --section WarpStateStats --section LaunchStats python3 -c "
import torch, dev_common
from tconv.harness.precision import precision_mode
with precision_mode('tf32'):
    model, inputs = dev_common.build_model('$stem', 'tf32')
    with torch.no_grad():
        for _ in range(2):
            model(*inputs)
    torch.cuda.synchronize()
") > "$LOG/ncu_l2_61_tf32_forward.txt" 2>&1
grep -E "strip_unit_stride[a-z_]*kernel|Duration|Throughput|Pipe|Achieved Occupancy|Registers Per|Stall|Shared" \
  "$LOG/ncu_l2_61_tf32_forward.txt" | cut -c1-140 | head -40
device_finish
