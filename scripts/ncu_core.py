"""Runs one pass of a problem's tconv solution so Nsight Compute can profile its kernels:

    ncu --target-processes all -k regex:tconv --launch-skip 2 --launch-count 4 \
        --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
        python3 scripts/ncu_core.py l1_73_convt3d_strided_padded_grouped fwd

(scripts/ncu_core.sh does this for the problems whose misses notes/perf.md lists.) The first call is
a warm-up (extension load, weight packing), then the pass named on the command line runs once more.
"""
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tconv.harness.problem import import_file  # noqa: E402


def main(stem: str, which: str, precision: str) -> None:
    problem = import_file(ROOT / "problems" / f"{stem}.py", "problem")
    solution = import_file(ROOT / "solutions" / f"{stem}.py", "solution")
    torch.manual_seed(0)
    dtype = {"tf32": torch.float32, "fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}[precision]
    torch.backends.cudnn.allow_tf32 = precision == "tf32"  # this profiling process only
    model = solution.ModelNew(*problem.get_init_inputs()).cuda().to(dtype)
    inputs = [t.cuda().to(dtype) if isinstance(t, torch.Tensor) else t for t in problem.get_inputs()]
    for _ in range(2):
        if which == "fwd":
            with torch.no_grad():
                model(*inputs)
        else:
            leaves = [t.detach().requires_grad_() if isinstance(t, torch.Tensor) else t for t in inputs]
            out = model(*leaves)
            out.backward(torch.randn_like(out))
        torch.cuda.synchronize()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "fwd", sys.argv[3] if len(sys.argv) > 3 else "tf32")
