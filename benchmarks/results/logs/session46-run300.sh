#!/usr/bin/env bash
# Run 300: cef8aaba (the transpose's store order for odd units, tap-major partials) with the widened grad_weight rule
# (16-bit, <= 64 channels a side, <= 21 taps): build, the unit-stride tests (with the 33-channel case and the new
# where-planned asserts), memcheck/racecheck of the unit-stride kernels, tconv-only bf16 timings of the five rows the
# grad_weight kernel now runs, per-kernel times, and ncu of L1-71 bf16's grad_weight launch.
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
P="l1_71_convt2d_asym_input_square_kernel fam08_convt1d_k5_d3_131072 fam11_convt2d_k3x7_p1x3_512x1024 fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512"
OUT=$OUT TESTS="unit_stride_mma" PROBLEMS="$P" PRECISIONS=bf16 SANITIZE=1 SANITIZE_KERNELS=unit_stride_mma \
  bash scripts/device_check.sh
rm -f "$OUT/build.log"
timeout 120 python3 scripts/kernel_breakdown.py $P --precision bf16 --iters 3 2>&1 | grep -v Warn | cut -c1-200 | tee "$OUT/breakdown.log"
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
echo "ncu rc $?"; grep -E "Duration|Executed Instructions  |Issue Slots Busy|Registers Per|bank|bytes transmitted" "$OUT/ncu_gw.txt"
