"""Development timing of tconv's solutions alone, per algorithm: for A/B-ing kernel changes within one
GPU call when device time is short. Not a report: it neither verifies nor times PyTorch, so its
numbers are compared only with each other; speedups and published figures come from `tconv bench`.

    python3 scripts/quick_timing.py l1_68_convt3d_square_input_asym_kernel real_hifigan_up \
        --precision tf32 --algorithm auto igemm_mma direct --runs 20 [--json OUT]

Prints one line per (problem, precision, algorithm): forward and forward+backward median (p20-p80) ms, and the host's
median ms to issue one timed fwd+bwd (where it nears the fwd+bwd median, the timing followed the host).
`--layout channels_last` lays the inputs' 4-D and 5-D tensors out channels-last (and each grad_output as its
output), as `tconv bench --layout channels_last` does.
`--algorithm autotune` runs "auto" with tconv's autotune on (tuned in the warm-up; the rows record each
pass's winner and candidate times).
"""
import argparse
import contextlib
import sys
from pathlib import Path

import torch

from dev_common import build_model, clear_grads, finish
import tconv
from tconv.harness.precision import precision_mode
from tconv.harness.tensors import LAYOUTS, backward_all, make_leaves, strided_like, tensor_list, to_layout
from tconv.harness.timing import time_cuda


def time_solution(stem: str, precision: str, algorithm: str, runs: int, warmup: int,
                  layout: str = "contiguous") -> dict:
    model, inputs = build_model(stem, precision)
    inputs = to_layout(inputs, layout)
    tuned = algorithm == "autotune"
    tconv.clear_autotune_cache()
    with precision_mode(precision), tconv._ops.use_algorithm("auto" if tuned else algorithm), \
            (tconv.autotune() if tuned else contextlib.nullcontext()):
        def forward():
            with torch.no_grad():
                model(*inputs)

        leaves = make_leaves(inputs)
        outputs = tensor_list(model(*leaves))
        grads = strided_like([torch.randn(t.shape, device=t.device, dtype=t.dtype) for t in outputs], outputs)

        def forward_backward():
            backward_all(tensor_list(model(*leaves)), grads)

        fwd = time_cuda(forward, runs, warmup)
        fwdbwd = time_cuda(forward_backward, runs, warmup, before_each=lambda: clear_grads(model, leaves))
    row = {"problem": stem, "precision": precision, "algorithm": algorithm, "layout": layout,
           "fwd_ms": fwd.median_ms, "fwd_p20_ms": fwd.p20_ms, "fwd_p80_ms": fwd.p80_ms,
           "fwdbwd_ms": fwdbwd.median_ms, "fwdbwd_p20_ms": fwdbwd.p20_ms, "fwdbwd_p80_ms": fwdbwd.p80_ms,
           "fwdbwd_host_ms": fwdbwd.host_ms}
    if tuned:
        row["autotune"] = [{"op": key[0], "winner": t.winner, "times_ms": t.times_ms, "refused": t.refused}
                           for key, t in tconv.autotune_cache().items()]
        for entry in row["autotune"]:
            print(f"  autotune {entry['op']:11s} -> {entry['winner']:17s} "
                  + " ".join(f"{k}={v:.3f}" for k, v in entry["times_ms"].items()), flush=True)
            for name, why in entry["refused"].items():  # those that ran but lost on memory or a far slower start
                if why.startswith(("allocates", "first runs")):
                    print(f"    refused {name}: {why}", flush=True)
    tconv.clear_autotune_cache()
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problems", nargs="+", help="stems under problems/")
    parser.add_argument("--precision", nargs="+", default=["tf32"], choices=["tf32", "fp32", "fp16", "bf16"])
    parser.add_argument("--algorithm", nargs="+", default=["auto"], choices=list(tconv._ops.ALGORITHMS) + ["autotune"])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--layout", choices=LAYOUTS, default="contiguous")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("quick_timing: needs a CUDA GPU", file=sys.stderr)
        return 2
    rows = []
    for stem in args.problems:
        for precision in args.precision:
            for algorithm in args.algorithm:
                try:
                    row = time_solution(stem, precision, algorithm, args.runs, args.warmup, args.layout)
                except RuntimeError as error:  # e.g. a forced algorithm that cannot run this shape
                    row = {"problem": stem, "precision": precision, "algorithm": algorithm,
                           "error": str(error).splitlines()[0]}
                rows.append(row)
                if "error" in row:
                    print(f"{stem:50s} {precision:5s} {algorithm:14s} ERROR {row['error']}", flush=True)
                else:
                    print(f"{stem:50s} {precision:5s} {algorithm:14s} fwd {row['fwd_ms']:9.3f} "
                          f"({row['fwd_p20_ms']:.3f}-{row['fwd_p80_ms']:.3f})  fwd+bwd {row['fwdbwd_ms']:9.3f} "
                          f"({row['fwdbwd_p20_ms']:.3f}-{row['fwdbwd_p80_ms']:.3f}) ms; host "
                          f"{row['fwdbwd_host_ms']:.3f} ms per fwd+bwd", flush=True)
    return finish(args.json, rows)


if __name__ == "__main__":
    sys.exit(main())
