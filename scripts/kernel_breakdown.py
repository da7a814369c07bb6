"""Where the time of tconv's solutions goes, kernel by kernel: each problem's ModelNew runs forward +
backward under torch.profiler and the CUDA time of every kernel is summed per name and divided by the
number of profiled iterations. A development tool (which kernel to work on next), not a report: the
profiler adds overhead and nothing is verified; published timings come from `tconv bench`.

    python3 scripts/kernel_breakdown.py l1_68_convt3d_square_input_asym_kernel real_hifigan_up \
        --precision tf32 --iters 3 [--json OUT] [--model original]

`--model original` profiles the original Model instead (what cuDNN runs, for comparison).
"""
import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tconv.harness.precision import compute_dtype, precision_mode  # noqa: E402
from tconv.harness.problem import import_file  # noqa: E402
from tconv.harness.tensors import backward_all, make_leaves, tensor_list, to_device  # noqa: E402


def kernel_times(stem: str, precision: str, iters: int, which: str) -> dict:
    problem = import_file(ROOT / "problems" / f"{stem}.py", f"problem_{stem}")
    device = torch.device("cuda", torch.cuda.current_device())
    dtype = compute_dtype(precision)
    torch.manual_seed(0)
    if which == "original":
        model = problem.Model(*problem.get_init_inputs())
    else:
        solution = import_file(ROOT / "solutions" / f"{stem}.py", f"solution_{stem}")
        model = solution.ModelNew(*problem.get_init_inputs())
    model = model.to(device=device, dtype=dtype)
    inputs = to_device(problem.get_inputs(), device, dtype)
    with precision_mode(precision):
        leaves = make_leaves(inputs)
        grads = [torch.randn_like(t) for t in tensor_list(model(*leaves))]

        def step():
            for p in model.parameters():
                p.grad = None
            for t in leaves:  # a kept input grad would be accumulated into (an extra add kernel)
                if isinstance(t, torch.Tensor):
                    t.grad = None
            backward_all(tensor_list(model(*leaves)), grads)

        step()  # warm-up (JIT build, packing caches, cuDNN plans)
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            for _ in range(iters):
                step()
            torch.cuda.synchronize()
    totals = defaultdict(lambda: [0.0, 0])
    for event in prof.events():
        if event.device_type == torch.autograd.DeviceType.CUDA:
            us = getattr(event, "device_time", None)
            if us is None:
                us = event.cuda_time
            totals[event.name][0] += us
            totals[event.name][1] += 1
    kernels = sorted(((name, t / iters / 1000.0, n // iters) for name, (t, n) in totals.items()), key=lambda r: -r[1])
    return {"problem": stem, "precision": precision, "model": which,
            "total_ms": sum(ms for _, ms, _ in kernels),
            "kernels": [{"name": name, "ms": ms, "launches": n} for name, ms, n in kernels]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problems", nargs="+", help="stems under problems/")
    parser.add_argument("--precision", nargs="+", default=["tf32"], choices=["tf32", "fp32", "fp16", "bf16"])
    parser.add_argument("--iters", type=int, default=3)
    parser.add_argument("--model", choices=["new", "original"], default="new")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("kernel_breakdown: needs a CUDA GPU", file=sys.stderr)
        return 2
    rows = []
    for stem in args.problems:
        for precision in args.precision:
            row = kernel_times(stem, precision, args.iters, args.model)
            rows.append(row)
            print(f"== {stem} {precision} {args.model}: {row['total_ms']:.3f} ms of kernels per fwd+bwd", flush=True)
            for k in row["kernels"][:8]:
                print(f"   {k['ms']:9.3f} ms  x{k['launches']:<3d} {k['name'][:150]}", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                                         "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
