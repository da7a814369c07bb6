"""Operand-layout probe for tconv's gather GEMM kernels: a 1x1 transposed convolution is the plain GEMM
y[n, co, w] = sum_ci x[n, ci, w] * W[ci, co], so structured inputs show where a kernel's fragment,
descriptor or accumulator layout goes wrong (a development tool for new tiles, not a test: the GPU
tests are the correctness check).

    python3 scripts/gemm_layout_probe.py [--algorithm igemm igemm_mma]

Three probes per algorithm, each printing the count of wrong outputs and the first few:
  rows:    x[0, 0, w] = w, W[0, co] = 1          -> y[0, co, w] = w           (A rows / accumulator rows)
  columns: x[0, ci, w] = 1 for ci = 0, W[0, co] = co -> y[0, co, w] = co      (B columns / accumulator columns)
  depth:   x[0, ci, w] = 1, W[ci, co] = 2^(ci % 20) -> y = sum over ci        (K order and chunking)
"""
import argparse
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import tconv  # noqa: E402


def probe(name, x, w, algorithm):
    with tconv._ops.use_algorithm(algorithm):
        got = tconv.conv_transpose1d(x, w)
    want = torch.nn.functional.conv_transpose1d(x.double(), w.double()).float()
    wrong = (got - want).abs() > 1e-3 * want.abs().clamp_min(1)
    print(f"{algorithm:9s} {name:8s} wrong {int(wrong.sum())} of {wrong.numel()}")
    for idx in wrong.nonzero()[:6].tolist():
        print(f"    at (n, co, w) = {tuple(idx)}: got {got[tuple(idx)].item():.4g}, want {want[tuple(idx)].item():.4g}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--algorithm", nargs="+", default=["igemm", "igemm_mma"])
    parser.add_argument("--cin", type=int, default=40)
    parser.add_argument("--cout", nargs="+", type=int, default=[64, 32, 72, 128, 136])
    parser.add_argument("--width", type=int, default=300)
    args = parser.parse_args()
    dev = "cuda"
    for algorithm in args.algorithm:
        for cout in args.cout:
            print(f"-- C_in {args.cin}, C_out {cout}, width {args.width}")
            x = torch.zeros(1, args.cin, args.width, device=dev)
            w = torch.zeros(args.cin, cout, 1, device=dev)
            x[0, 0] = torch.arange(args.width, device=dev, dtype=torch.float32)
            w[0, :, 0] = 1
            probe("rows", x, w, algorithm)
            x.zero_()
            x[0, 0] = 1
            w[0, :, 0] = torch.arange(cout, device=dev, dtype=torch.float32)
            probe("columns", x, w, algorithm)
            x.fill_(1)
            w.copy_((2.0 ** (torch.arange(args.cin, device=dev) % 20)).view(-1, 1, 1).expand_as(w))
            probe("depth", x, w, algorithm)
    return 0


if __name__ == "__main__":
    sys.exit(main())
