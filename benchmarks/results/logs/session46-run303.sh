#!/usr/bin/env bash
# Run 303: measured limits for the closing note - ncu (SpeedOfLight, ComputeWorkload, Scheduler, WarpState,
# Instruction, Launch, Occupancy) of every kernel of L1-71's TF32 fwd+bwd (the 3x target: 1.45x / 1.81x), and of
# fam06 bf16's unit-stride grad_weight forced on (TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=1: 8.46 ms against 1.44 for the
# shifted-x kernel at 64 -> 128 channels, which the per-tile work does not explain).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build > /tmp/build.log 2>&1 || { tail -40 /tmp/build.log; echo BUILD FAILED; exit 1; }
tail -1 /tmp/build.log
cat > /tmp/ncu_step.py <<'PY'
import sys
sys.path.insert(0, "scripts")
import torch
from dev_common import build_model
from tconv.harness.precision import precision_mode
from tconv.harness.tensors import backward_all, make_leaves, tensor_list
stem, precision = sys.argv[1], sys.argv[2]
model, inputs = build_model(stem, precision, "new")
with precision_mode(precision):
    leaves = make_leaves(inputs)
    outs = tensor_list(model(*leaves))
    backward_all(outs, [torch.randn_like(t) for t in outs])
torch.cuda.synchronize()
PY
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section SchedulerStats --section WarpStateStats --section InstructionStats --section LaunchStats --section Occupancy"
timeout 200 ncu --clock-control none --kernel-name regex:"tconv_" --launch-count 8 $S \
  python3 /tmp/ncu_step.py l1_71_convt2d_asym_input_square_kernel tf32 > "$OUT/ncu_l1_71_tf32.txt" 2>&1
echo "ncu rc $?"; grep -E "^  [a-z ]*void|Duration|Executed Instructions  |Issue Slots Busy|Registers Per|highest-utilized|Achieved Active Warps" "$OUT/ncu_l1_71_tf32.txt" | cut -c1-150
TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=1 timeout 200 ncu --clock-control none --kernel-name regex:"unit_stride_mma_grad_weight_kernel" \
  --launch-count 1 $S --section MemoryWorkloadAnalysis python3 /tmp/ncu_step.py fam06_convt2d_k3x5_128x256 bf16 > "$OUT/ncu_fam06_gw.txt" 2>&1
echo "ncu rc $?"; grep -E "Duration|Executed Instructions  |Issue Slots Busy|Registers Per|highest-utilized|Achieved Active Warps|Grid Size|Throughput" "$OUT/ncu_fam06_gw.txt" | cut -c1-150
