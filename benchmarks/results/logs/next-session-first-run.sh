#!/usr/bin/env bash
# Prepared in session 99 for the next session's first GPU call (one H200, cold; rename to sessionNN-runMMM.sh when it
# runs, fix these lines, commit BEFORE the call, pass TCONV_COMMIT=<full sha, typed out>).
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
device_finish
