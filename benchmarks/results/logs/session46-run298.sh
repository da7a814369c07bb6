#!/usr/bin/env bash
# Run 298: the grad_weight's leaner MMA loop and staging (66b24a7): build, the unit-stride tests, memcheck/racecheck
# of the unit-stride kernels, tconv-only timings of L1-71 and fam08 bf16 (auto: the kernel by the rule) and of fam01 /
# fam05 bf16 with the rule and with the kernel on wherever it runs (64 input channels), per-kernel times, and ncu of
# L1-71 bf16's grad_weight launch (instructions, issue).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
OUT=$OUT TESTS="unit_stride_mma" PROBLEMS="l1_71_convt2d_asym_input_square_kernel fam08_convt1d_k5_d3_131072" \
  PRECISIONS=bf16 SANITIZE=1 SANITIZE_KERNELS=unit_stride_mma bash scripts/device_check.sh
rm -f "$OUT/build.log"
P="fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512"
q() { timeout 120 env "$@" python3 scripts/quick_timing.py $P --precision bf16 --algorithm auto --runs 10 2>&1 | tee -a "$OUT/quick.log"; }
echo "== rule" | tee -a "$OUT/quick.log"; q TCONV_X=0
echo "== on" | tee -a "$OUT/quick.log"; q TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=1
echo "== rule" | tee -a "$OUT/quick.log"; q TCONV_X=0
echo "== breakdown on" | tee -a "$OUT/quick.log"
TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=1 timeout 120 python3 scripts/kernel_breakdown.py l1_71_convt2d_asym_input_square_kernel \
  fam08_convt1d_k5_d3_131072 $P --precision bf16 --iters 3 2>&1 | grep -v Warn | tee -a "$OUT/quick.log"
cat > /tmp/ncu_step.py <<'PY'
import sys
sys.path.insert(0, "scripts")
import torch
from dev_common import build_model
from tconv.harness.precision import precision_mode
from tconv.harness.tensors import backward_all, make_leaves, tensor_list
model, inputs = build_model("l1_71_convt2d_asym_input_square_kernel", "bf16", "new")
with precision_mode("bf16"):
    leaves = make_leaves(inputs)
    outs = tensor_list(model(*leaves))
    backward_all(outs, [torch.randn_like(t) for t in outs])
torch.cuda.synchronize()
PY
timeout 150 ncu --clock-control none --kernel-name regex:"tconv_unit_stride_mma_grad_weight_kernel" --launch-count 1 \
  --section SpeedOfLight --section ComputeWorkloadAnalysis --section SchedulerStats --section WarpStateStats \
  --section InstructionStats --section LaunchStats --section MemoryWorkloadAnalysis_Tables \
  python3 /tmp/ncu_step.py > "$OUT/ncu_gw.txt" 2>&1
echo "ncu rc $?"; grep -E "Duration|Executed Instructions  |Issue Slots Busy|Registers Per" "$OUT/ncu_gw.txt"
