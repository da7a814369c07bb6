"""Development timing of one pass, grad_weight, per algorithm on a problem's transposed convolution: for A/B-ing
grad_weight kernels within one GPU call. Not a report (quick_timing.py's caveats apply); it also prints the largest
difference between the algorithms' results relative to the largest |value|, as a sanity check, not a verification.

    python3 scripts/grad_weight_timing.py l1_73_convt3d_strided_padded_grouped --precision tf32 bf16 \
        --algorithm auto grouped_mma --runs 20 [--json OUT]

An entry "k3d:N,C_in,C_out,S" times a 3D call beside the suite's instead of a problem: input S x S x S, kernel 3,
stride 1, no padding (run 320 swept the fp32 grad_weight kernels so: grad_weight_keeps_wgmma in
conv_transpose_igemm.cu).
"""
import argparse
from pathlib import Path

import torch
from torch.nn.modules.conv import _ConvTransposeNd

from dev_common import build_model, finish
import tconv
from tconv.harness.precision import precision_mode
from tconv.harness.timing import time_cuda


def conv_of(model):
    """The model's first transposed convolution (tconv's modules subclass torch's, as roofline.py relies on too);
    its input is taken to be the problem's first input, as in the grouped problems this is for."""
    for module in model.modules():
        if isinstance(module, _ConvTransposeNd):
            return module
    raise ValueError("no transposed convolution in the model")


def grad_weight_call(entry: str, precision: str):
    """grad_output, input and the weight's (shape, stride, padding, dilation, groups) of a problem stem's first
    transposed convolution, or of a "k3d:N,C_in,C_out,S" entry."""
    if entry.startswith("k3d:"):
        n, c_in, c_out, size = (int(v) for v in entry[4:].split(","))
        dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision, torch.float32)
        x = torch.randn(n, c_in, size, size, size, device="cuda", dtype=dtype)
        grad = torch.randn(n, c_out, size + 2, size + 2, size + 2, device="cuda", dtype=dtype)
        return grad, x, ([c_in, c_out, 3, 3, 3], [1] * 3, [0] * 3, [1] * 3, 1)
    model, inputs = build_model(entry, precision)
    conv = conv_of(model)
    x = inputs[0]
    with torch.no_grad():
        out = conv(x)
    grad = torch.randn_like(out)
    return grad, x, (list(conv.weight.shape), list(conv.stride), list(conv.padding), list(conv.dilation), conv.groups)


def time_grad_weight(stem: str, precision: str, algorithms, runs: int, warmup: int):
    grad, x, args = grad_weight_call(stem, precision)
    rows, results = [], {}
    with precision_mode(precision):
        for algorithm in algorithms:
            with tconv._ops.use_algorithm(algorithm):
                def run():
                    return tconv._ops.conv_transpose_grad_weight(grad, x, *args)
                results[algorithm] = run().float()
                stats = time_cuda(run, runs, warmup)
            rows.append({"problem": stem, "precision": precision, "algorithm": algorithm, "pass": "grad_weight",
                         "ms": stats.median_ms, "p20_ms": stats.p20_ms, "p80_ms": stats.p80_ms})
    first = results[algorithms[0]]
    scale = first.abs().max().item() or 1.0
    for row in rows:
        row["max_diff_vs_first"] = (results[row["algorithm"]] - first).abs().max().item() / scale
        print(f"{stem} {precision} {row['algorithm']:12s} grad_weight {row['ms']:.3f} ({row['p20_ms']:.3f}-"
              f"{row['p80_ms']:.3f}) ms  max diff vs {algorithms[0]} {row['max_diff_vs_first']:.2e}", flush=True)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problems", nargs="+", help='stems under problems/, or "k3d:N,C_in,C_out,S"')
    parser.add_argument("--precision", nargs="+", default=["tf32"], choices=["tf32", "fp32", "fp16", "bf16"])
    parser.add_argument("--algorithm", nargs="+", default=["auto", "grouped_mma"])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    rows = []
    for stem in args.problems:
        for precision in args.precision:
            rows += time_grad_weight(stem, precision, args.algorithm, args.runs, args.warmup)
    return finish(args.json, rows)


if __name__ == "__main__":
    raise SystemExit(main())
