"""Where the time of tconv's solutions goes, kernel by kernel: each problem's ModelNew runs forward +
backward under torch.profiler and the CUDA time of every kernel is summed per name and divided by the
number of profiled iterations. A development tool (which kernel to work on next), not a report: the
profiler adds overhead and nothing is verified; published timings come from `tconv bench`.

    python3 scripts/kernel_breakdown.py l1_68_convt3d_square_input_asym_kernel real_hifigan_up \
        --precision tf32 --iters 3 [--json OUT] [--model original]

`--layout channels_last` lays the inputs' 4-D and 5-D tensors out channels-last (the grad_outputs follow their
outputs). `--model original` profiles the original Model instead (what cuDNN runs, for comparison);
`--cudnn-benchmark` runs either with `torch.backends.cudnn.benchmark` on (the bench's cuDNN-benchmark column: its
algorithm search happens in the warm-up step, outside the profile). `--algorithm` runs tconv's passes under one of
its forced algorithms (what quick_timing.py times), to see which kernels it reaches.

tconv's backward passes run one after the other here (TCONV_CONCURRENT_BACKWARD=0) unless `--concurrent` is given or
the variable is set: run at once, their kernels overlap, so each one's profiled time includes the other's (session 75:
HiFi-GAN's TF32 grad_input read 5.63 ms that way and 1.89 ms serially) and the kernel sum exceeds the step.
"""
import argparse
import os
import sys
from collections import defaultdict
from pathlib import Path

# tconv reads the switch when it is imported (below, through dev_common).
if "--concurrent" not in sys.argv[1:]:
    os.environ.setdefault("TCONV_CONCURRENT_BACKWARD", "0")

import torch

import tconv
from dev_common import build_model, fwd_bwd_step, write_rows
from tconv.harness.precision import precision_mode
from tconv.harness.tensors import LAYOUTS, to_layout


def kernel_times(stem: str, precision: str, iters: int, which: str, cudnn_benchmark: bool = False,
                 layout: str = "contiguous", algorithm: str = "auto") -> dict:
    model, inputs = build_model(stem, precision, which)
    inputs = to_layout(inputs, layout)
    with precision_mode(precision, cudnn_benchmark=cudnn_benchmark), tconv._ops.use_algorithm(algorithm):
        step = fwd_bwd_step(model, inputs)

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
    return {"problem": stem, "precision": precision, "model": which, "cudnn_benchmark": cudnn_benchmark,
            "layout": layout, "algorithm": algorithm,
            "concurrent_backward": os.environ.get("TCONV_CONCURRENT_BACKWARD") != "0",
            "total_ms": sum(ms for _, ms, _ in kernels),
            "kernels": [{"name": name, "ms": ms, "launches": n} for name, ms, n in kernels]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problems", nargs="+", help="stems under problems/")
    parser.add_argument("--precision", nargs="+", default=["tf32"], choices=["tf32", "fp32", "fp16", "bf16"])
    parser.add_argument("--iters", type=int, default=3)
    parser.add_argument("--model", choices=["new", "original"], default="new")
    parser.add_argument("--cudnn-benchmark", action="store_true", help="torch.backends.cudnn.benchmark on")
    parser.add_argument("--concurrent", action="store_true",
                        help="tconv's backward passes at once, as by default outside this tool (their kernel times "
                             "then overlap)")
    parser.add_argument("--layout", choices=LAYOUTS, default="contiguous")
    parser.add_argument("--algorithm", default="auto", choices=list(tconv._ops.ALGORITHMS),
                        help="tconv's algorithm for every pass (tconv._ops.use_algorithm), to see what a forced one runs")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("kernel_breakdown: needs a CUDA GPU", file=sys.stderr)
        return 2
    rows = []
    for stem in args.problems:
        for precision in args.precision:
            row = kernel_times(stem, precision, args.iters, args.model, args.cudnn_benchmark, args.layout,
                               args.algorithm)
            rows.append(row)
            label = args.model + (" cudnn.benchmark" if args.cudnn_benchmark else "") + \
                (f" {args.layout}" if args.layout != "contiguous" else "") + \
                (f" {args.algorithm}" if args.algorithm != "auto" else "")
            if args.model == "new" and row["concurrent_backward"]:
                label += " (backward passes at once: their kernel times overlap)"
            print(f"== {stem} {precision} {label}: {row['total_ms']:.3f} ms of kernels per fwd+bwd", flush=True)
            for k in row["kernels"][:8]:
                print(f"   {k['ms']:9.3f} ms  x{k['launches']:<3d} {k['name'][:150]}", flush=True)
            if args.json:  # after every row, so a run cut short by its time limit keeps what it measured
                write_rows(args.json, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
