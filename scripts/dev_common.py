"""What the development scripts (quick_timing.py, kernel_breakdown.py) share: building a problem's
model on the GPU in a precision, clearing gradients between runs, and writing their rows as JSON."""
import argparse
import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tconv.harness.precision import compute_dtype  # noqa: E402
from tconv.harness.problem import import_file  # noqa: E402
from tconv.harness.tensors import backward_all, make_leaves, tensor_list, to_device  # noqa: E402


def build_model(stem: str, precision: str, which: str = "new"):
    """(model, inputs) on the current GPU in the precision's dtype, seeded; `which`: "new" = the
    solution's ModelNew, "original" = the problem's Model."""
    problem = import_file(ROOT / "problems" / f"{stem}.py", f"problem_{stem}")
    device = torch.device("cuda", torch.cuda.current_device())
    dtype = compute_dtype(precision)
    torch.manual_seed(0)
    if which == "original":
        model = problem.Model(*problem.get_init_inputs())
    else:
        solution = import_file(ROOT / "solutions" / f"{stem}.py", f"solution_{stem}")
        model = solution.ModelNew(*problem.get_init_inputs())
    return model.to(device=device, dtype=dtype), to_device(problem.get_inputs(), device, dtype)


def clear_grads(model, leaves) -> None:
    """Parameter and input grads to None, so a run neither accumulates into them (an extra add kernel)
    nor reads them."""
    for p in model.parameters():
        p.grad = None
    for t in leaves:
        if isinstance(t, torch.Tensor):
            t.grad = None


def fwd_bwd_step(model, inputs):
    """One forward+backward of model on inputs with fixed random output grads, grads cleared first (call it under the
    precision mode it is timed in: the grads' shapes come from one forward here)."""
    leaves = make_leaves(inputs)
    grads = [torch.randn_like(t) for t in tensor_list(model(*leaves))]

    def step():
        clear_grads(model, leaves)
        backward_all(tensor_list(model(*leaves)), grads)
    return step


def write_rows(path: Path, rows) -> None:
    path.write_text(json.dumps({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "rows": rows},
                               indent=2) + "\n")


def finish(json_path, rows) -> int:
    """A script's end: the rows as JSON where asked (`--json`), exit code 0."""
    if json_path:
        write_rows(json_path, rows)
    return 0


def sweep_arguments(doc: str, argv=None) -> argparse.Namespace:
    """The sweep scripts' options (phase_split_sweep.py, fold_sweep.py): --precision, --runs, --json."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--precision", nargs="+", default=["tf32"], choices=["tf32", "fp32", "fp16", "bf16"])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--only", nargs="+", help="shape names to run (default: all)")
    return parser.parse_args(argv)


def selected(shapes, only):
    """The rows of a sweep's SHAPES (name first) that --only names, or all of them."""
    return [shape for shape in shapes if not only or shape[0] in only]
