#!/usr/bin/env bash
# Run 297: (1) the unit-stride grad_weight at 64 input channels (two 32-channel stages), which its auto rule leaves
# out as unmeasured: fam01 (64 -> 64, k3) and fam05 (64 -> 64, k3x7) bf16 with the rule as committed, with the
# kernel on wherever it can run (TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=1), and the rule again (order effects);
# (2) ncu --set full of L1-71 bf16's unit-stride forward, grad_input and grad_weight launches (stall reasons).
set -uo pipefail
OUT="${OUT:-/tmp/tconv_out}"
export PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 TCONV_BUILD_DIR=/tmp/tconv_build
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -3
python3 -m tconv build > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; echo BUILD FAILED; exit 1; }
tail -1 "$OUT/build.log"; rm -f "$OUT/build.log"
P="fam01_convt2d_k3_1024x1024 fam05_convt2d_k3x7_512x512"
q() { timeout 120 env "$@" python3 scripts/quick_timing.py $P --precision bf16 --algorithm auto --runs 10 2>&1 | tee -a "$OUT/quick.log"; }
echo "== rule" | tee -a "$OUT/quick.log"; q TCONV_X=0
echo "== on" | tee -a "$OUT/quick.log"; q TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=1
echo "== rule" | tee -a "$OUT/quick.log"; q TCONV_X=0
echo "== breakdown on" | tee -a "$OUT/quick.log"
TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=1 timeout 90 python3 scripts/kernel_breakdown.py $P --precision bf16 --iters 3 2>&1 | tee -a "$OUT/quick.log"
echo "== breakdown rule" | tee -a "$OUT/quick.log"
timeout 90 python3 scripts/kernel_breakdown.py $P --precision bf16 --iters 3 2>&1 | tee -a "$OUT/quick.log"
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
print("ncu_step: done")
PY
timeout 240 ncu --clock-control none --kernel-name regex:"tconv_unit_stride_mma_(kernel|grad_weight_kernel)" --launch-count 3 \
  --set full python3 /tmp/ncu_step.py > "$OUT/ncu_l1_71_bf16.txt" 2>&1
echo "ncu rc $?"; grep -c "Section" "$OUT/ncu_l1_71_bf16.txt"; tail -3 "$OUT/ncu_l1_71_bf16.txt"
