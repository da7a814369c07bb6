"""Development timing of grad_weight alone on 3D k3 shapes beside the suite's, per algorithm: for a rule between the
fp32 (TF32) grad_weight kernels, measured in one GPU call. Not a report (quick_timing.py's caveats apply). Each shape
is "N,C_in,C_out,S" (input S x S x S, kernel 3, stride 1, no padding); each row prints the median (p20-p80) ms per
algorithm and the largest difference between the algorithms' results relative to the largest |value|.

    python3 scripts/grad_weight_sweep_3d.py 16,64,128,32 8,48,48,64 --algorithm auto igemm_mma --json OUT
"""
import argparse
from pathlib import Path

import torch

from dev_common import finish
import tconv
from tconv.harness.precision import precision_mode
from tconv.harness.timing import time_cuda


def sweep_row(shape: str, precision: str, algorithms, runs: int, warmup: int) -> list:
    n, c_in, c_out, size = (int(v) for v in shape.split(","))
    dtype = torch.bfloat16 if precision == "bf16" else torch.float32
    x = torch.randn(n, c_in, size, size, size, device="cuda", dtype=dtype)
    grad = torch.randn(n, c_out, size + 2, size + 2, size + 2, device="cuda", dtype=dtype)
    weight_shape = [c_in, c_out, 3, 3, 3]
    rows, results = [], {}
    with precision_mode(precision):
        for algorithm in algorithms:
            with tconv._ops.use_algorithm(algorithm):
                def run():
                    return tconv._ops.conv_transpose_grad_weight(grad, x, weight_shape, [1] * 3, [0] * 3, [1] * 3, 1)
                results[algorithm] = run().float()
                stats = time_cuda(run, runs, warmup)
            rows.append({"shape": shape, "precision": precision, "algorithm": algorithm, "pass": "grad_weight",
                         "ms": stats.median_ms, "p20_ms": stats.p20_ms, "p80_ms": stats.p80_ms})
    first = results[algorithms[0]]
    scale = first.abs().max().item() or 1.0
    for row in rows:
        row["max_diff_vs_first"] = (results[row["algorithm"]] - first).abs().max().item() / scale
    print(f"{shape:14s} {precision} " + "  ".join(f"{r['algorithm']} {r['ms']:.3f} ({r['p20_ms']:.3f}-{r['p80_ms']:.3f})"
                                              for r in rows)
          + f"  max diff {max(r['max_diff_vs_first'] for r in rows):.1e}", flush=True)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shapes", nargs="+", help="N,C_in,C_out,S")
    parser.add_argument("--precision", nargs="+", default=["tf32"], choices=["tf32", "bf16"])
    parser.add_argument("--algorithm", nargs="+", default=["auto", "igemm_mma"])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    rows = []
    for shape in args.shapes:
        for precision in args.precision:
            rows += sweep_row(shape, precision, args.algorithm, args.runs, args.warmup)
    return finish(args.json, rows)


if __name__ == "__main__":
    raise SystemExit(main())
