"""Where grad_input's phase split pays: tconv's grad_input alone, "igemm" against "igemm_phase_split",
over strided 1D/2D shapes (W stride 2..8, kernel 2s or 2s-1, the padding that makes W_out a multiple of
the stride). A development sweep for the "auto" boundary, not a report (nothing from PyTorch is timed;
the GPU tests check the split's results).

    python3 scripts/phase_split_sweep.py --precision tf32 bf16 [--json OUT]
"""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tconv import _args, _ops, _phase_split  # noqa: E402
from tconv.harness.precision import compute_dtype, precision_mode  # noqa: E402
from tconv.harness.timing import time_cuda  # noqa: E402

from dev_common import finish, selected, sweep_arguments  # noqa: E402

# (name, batch, C_in, C_out, spatial, kernel, stride, padding): C_in is grad_input's N, C_out its K.
SHAPES = [
    ("1d_s2_k4", 16, 512, 256, [16384], [4], [2], [1]),
    ("1d_s3_k5", 16, 512, 256, [8192], [5], [3], [1]),
    ("1d_s4_k8", 16, 512, 256, [8192], [8], [4], [2]),
    ("1d_s5_k11", 16, 512, 256, [8192], [11], [5], [3]),
    ("1d_s8_k16", 16, 512, 256, [8192], [16], [8], [4]),
    ("1d_s8_k16_c128", 16, 128, 128, [16384], [16], [8], [4]),
    ("1d_s4_k8_c64", 16, 64, 64, [65536], [8], [4], [2]),
    ("2d_s2_k4", 64, 512, 256, [16, 16], [4, 4], [2, 2], [1, 1]),
    ("2d_s2_k4_big", 16, 128, 64, [64, 64], [4, 4], [2, 2], [1, 1]),
    ("2d_s4_k8", 16, 256, 128, [32, 32], [8, 8], [4, 4], [2, 2]),
]


def pad3(values, fill):
    return [fill] * (3 - len(values)) + list(values)


def main(argv=None) -> int:
    args = sweep_arguments(__doc__, argv)
    rows = []
    for name, batch, cin, cout, spatial, kernel, stride, padding in selected(SHAPES, args.only):
        dims = len(spatial)
        out = _args.output_size(spatial, kernel, stride, padding, [0] * dims, [1] * dims)
        for precision in args.precision:
            dtype = compute_dtype(precision)
            grad = torch.randn(batch, cout, *out, device="cuda", dtype=dtype)
            weight = torch.randn(cin, cout, *kernel, device="cuda", dtype=dtype)
            size = [batch, cin, *spatial]
            split, why = _phase_split.plan([batch, cout, *pad3(out, 1)], [cin, cout, *pad3(kernel, 1)],
                                           [batch, cin, *pad3(spatial, 1)], pad3(stride, 1), pad3(padding, 0),
                                           [1, 1, 1])
            row = {"shape": name, "precision": precision, "split": why or f"R={split.residues} Q={split.taps} "
                   f"mma x{split.mma_ratio:.2f}"}
            for algorithm in ("igemm", "igemm_phase_split"):
                with precision_mode(precision), _ops.use_algorithm(algorithm):
                    fn = lambda: _ops.conv_transpose_grad_input(grad, weight, size, stride, padding, [1] * dims, 1)
                    row[algorithm] = time_cuda(fn, args.runs, 3).median_ms
            row["speedup"] = row["igemm"] / row["igemm_phase_split"]
            rows.append(row)
            print(f"{name:16s} {precision:5s} {row['split']:28s} igemm {row['igemm']:8.3f}  split "
                  f"{row['igemm_phase_split']:8.3f} ms  x{row['speedup']:.2f}", flush=True)
    return finish(args.json, rows)


if __name__ == "__main__":
    sys.exit(main())
