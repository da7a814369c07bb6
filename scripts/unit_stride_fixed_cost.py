"""How much of a unit-stride strip forward block's time is paid once per block (pipeline fill, tap set-up, the
staged store) rather than per K stage: the forward of one output shape timed under "igemm_strip" at several input
channel counts (a longer K loop per block, the same grid and the same stores), TF32 mode or 16-bit data
(--precision: the first given). A straight line through
(K, ms) has the per-K cost as its slope and the fixed cost as its intercept; intercept / time is the share a
persistent form that overlaps a block's store with the next block's loads could at best hide. A development
measurement for the design, not a report.

    python3 scripts/unit_stride_fixed_cost.py [--runs 20] [--only fam04 fam01] [--precision bf16] [--json OUT]
"""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tconv import _ops  # noqa: E402
from tconv.harness.precision import precision_mode  # noqa: E402
from tconv.harness.timing import time_cuda  # noqa: E402

from dev_common import finish, selected, sweep_arguments  # noqa: E402

# (name, input shape with C_in = 0, weight shape with C_in = 0, padding, the C_in values): the suite row's shape
# (C_in as in the suite among the values)
SHAPES = [
    ("fam04", [64, 0, 65536], [0, 128, 3], [0], [64, 128, 256, 512]),
    ("fam01", [8, 0, 1024, 1024], [0, 64, 3, 3], [0, 0], [32, 64, 128, 256]),
    ("fam06", [64, 0, 128, 256], [0, 128, 3, 5], [0, 0], [32, 64, 128]),
]


def line_fit(points):
    """Least-squares (slope, intercept) of (x, y) points."""
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / sxx
    return slope, mean_y - slope * mean_x


def main(argv=None) -> int:
    args = sweep_arguments(__doc__, argv)
    rows = []
    precision = args.precision[0]
    dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision, torch.float32)
    for name, x_shape, w_shape, padding, channels in selected(SHAPES, args.only):
        dims = len(x_shape) - 2
        ones = [1] * dims
        points = []
        for c_in in channels:
            x = torch.randn([x_shape[0], c_in] + x_shape[2:], device="cuda", dtype=dtype)
            weight = torch.randn([c_in] + w_shape[1:], device="cuda", dtype=dtype)
            bias = torch.randn(w_shape[1], device="cuda", dtype=dtype)
            k = c_in
            for size in w_shape[2:]:
                k *= size
            with precision_mode(precision), _ops.use_algorithm("igemm_strip"):
                fn = lambda: _ops.conv_transpose(x, weight, bias, ones, padding, [0] * dims, ones, 1)  # noqa: E731
                stats = time_cuda(fn, runs=args.runs, warmup=3)
            flops = 2.0 * x.numel() * weight[0].numel()
            points.append((k, stats.median_ms))
            row = {"shape": name, "precision": precision, "c_in": c_in, "k": k, "ms": stats.median_ms, "p20_ms": stats.p20_ms,
                   "p80_ms": stats.p80_ms, "tflops": flops / stats.median_ms / 1e9}
            rows.append(row)
            print(f"{name:6s} {precision} C_in {c_in:4d} K {k:5d}  {stats.median_ms:8.3f} ms"
                  f" ({stats.p20_ms:.3f}-{stats.p80_ms:.3f})  {row['tflops']:6.1f} TFLOP/s", flush=True)
            del x, weight, bias
            torch.cuda.empty_cache()
        slope, intercept = line_fit(points)
        for k, ms in points:
            print(f"{name:6s} K {k:5d}: fixed {intercept:.3f} ms of {ms:.3f} ({100 * intercept / ms:.0f} %),"
                  f" per K {1000 * slope:.3f} us")
        rows.append({"shape": name, "fit_slope_ms_per_k": slope, "fit_intercept_ms": intercept})
    return finish(args.json, rows)


if __name__ == "__main__":
    sys.exit(main())
