"""Where the strip kernels pay: each pass of a 1D transposed convolution at W stride 8/16/32 with a W kernel of
whole strides, timed alone under "auto" (which takes the strip kernels there) against the GEMMs "auto" would run
without them ("igemm"; grad_input also on the phase split, "igemm_phase_split"), with PyTorch's same pass on the
same tensors as a reference point. TF32 mode only (the strip kernels' mode). A development sweep for the "auto"
boundary, not a report; the GPU tests check the results.

    python3 scripts/strip_sweep.py [--runs 10] [--json OUT]
"""
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tconv import _args, _ops  # noqa: E402
from tconv.harness.precision import precision_mode  # noqa: E402
from tconv.harness.timing import time_cuda  # noqa: E402

from dev_common import finish, selected, sweep_arguments  # noqa: E402

# (name, batch, C_in, C_out, W_in, kernel, stride, padding)
SHAPES = [
    ("hifigan_up1_k16s8", 16, 512, 256, 8192, 16, 8, 4),
    ("hifigan_up2_k16s8", 2, 256, 128, 65536, 16, 8, 4),
    ("small_k16s8", 1, 64, 32, 256, 16, 8, 4),
    ("mid_k16s8_b1", 1, 128, 64, 2048, 16, 8, 4),
    ("mid_k16s8_b4", 4, 128, 64, 1024, 16, 8, 4),
    ("mid_k16s8_b2_c256", 2, 256, 128, 2048, 16, 8, 4),
    ("few_channels_k16s8", 16, 16, 16, 8192, 16, 8, 4),
    ("k8s8_T1", 8, 256, 256, 4096, 8, 8, 0),
    ("k32s8_T4", 8, 256, 128, 4096, 32, 8, 12),
    ("k32s16_T2", 8, 256, 128, 2048, 32, 16, 8),
    ("k32s32_T1", 8, 256, 64, 1024, 32, 32, 0),
]


def main(argv=None) -> int:
    args = sweep_arguments(__doc__, argv)
    rows = []
    for name, batch, cin, cout, width, kernel, stride, padding in selected(SHAPES, args.only):
        x = torch.randn(batch, cin, width, device="cuda")
        weight = torch.randn(cin, cout, kernel, device="cuda")
        out_w = _args.output_size([width], [kernel], [stride], [padding], [0], [1])[0]
        grad = torch.randn(batch, cout, out_w, device="cuda")
        passes = {
            "forward": lambda: _ops.conv_transpose(x, weight, None, [stride], [padding], [0], [1], 1),
            "grad_input": lambda: _ops.conv_transpose_grad_input(grad, weight, list(x.shape), [stride], [padding],
                                                                 [1], 1),
            "grad_weight": lambda: _ops.conv_transpose_grad_weight(grad, x, list(weight.shape), [stride], [padding],
                                                                   [1], 1),
        }
        torch_passes = {
            "forward": lambda: F.conv_transpose1d(x, weight, None, stride, padding),
            "grad_input": lambda: F.conv1d(grad, weight, None, stride, padding),
            "grad_weight": lambda: torch.ops.aten.convolution_backward(
                grad, x, weight, None, [stride], [padding], [1], True, [0], 1, [False, True, False])[1],
        }
        row = {"shape": name, "batch": batch, "c_in": cin, "c_out": cout, "w_in": width, "kernel": kernel,
               "stride": stride}
        with precision_mode("tf32"):
            for op, fn in passes.items():
                for algorithm in ("auto", "igemm") + (("igemm_phase_split",) if op == "grad_input" else ()):
                    with _ops.use_algorithm(algorithm):
                        row[f"{op}_{algorithm}"] = time_cuda(fn, args.runs, 3).median_ms
                row[f"{op}_torch"] = time_cuda(torch_passes[op], args.runs, 3).median_ms
                others = [row[k] for k in row if k.startswith(op + "_igemm")]
                row[f"{op}_strip_gain"] = min(others) / row[f"{op}_auto"]
        rows.append(row)
        print(f"{name:20s} " + "  ".join(
            f"{op} auto {row[op + '_auto']:7.3f} gemm {min(row[k] for k in row if k.startswith(op + '_igemm')):7.3f} "
            f"torch {row[op + '_torch']:7.3f} (x{row[op + '_strip_gain']:.2f})" for op in passes), flush=True)
    return finish(args.json, rows)


if __name__ == "__main__":
    sys.exit(main())
