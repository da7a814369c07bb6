"""The forward's unit-stride strip form against the GEMM "auto" runs without it: the suite's stride-1 calls, each
forward timed alone under "auto" and under "igemm_strip" (which takes the unit-stride form wherever it can run), with
PyTorch's forward on the same tensors as a reference point, TF32 mode, and the two tconv outputs compared (max
|difference| over max |output|); then grad_input as the unit-stride forward of grad_output ("igemm_strip") against
the gather GEMM ("igemm"), compared the same way. Then HiFi-GAN's forward and grad_input under "auto" (the 1D strip
kernels, whose pipeline run_strip_pipeline now shares). A development sweep for the "auto" rule, not a report; the
GPU tests check the results. --precision fp16 / bf16 (session 31: 16-bit data on the unit-stride form) times the
forward against "igemm" (the gathers) instead of "auto", since "auto" itself takes the form under its 16-bit rule.

    python3 scripts/unit_stride_sweep.py [--runs 10] [--precision tf32 bf16] [--json OUT] [--only l1_68 fam02 ...]
"""
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tconv import _ops  # noqa: E402
from tconv.harness.precision import precision_mode  # noqa: E402
from tconv.harness.timing import time_cuda  # noqa: E402

from dev_common import finish, selected, sweep_arguments  # noqa: E402

# (name, input shape, weight shape, padding): the suite's stride-1 calls (dilation 1, output_padding 0)
SHAPES = [
    ("l1_68", [16, 32, 64, 64, 64], [32, 64, 3, 5, 5], [0, 0, 0]),
    ("l1_71", [8, 32, 512, 1024], [32, 32, 3, 3], [0, 0]),
    ("l2_61", [16, 64, 32, 32, 32], [64, 128, 3, 3, 3], [0, 0, 0]),
    ("fam01", [8, 64, 1024, 1024], [64, 64, 3, 3], [0, 0]),
    ("fam02", [16, 32, 16, 32, 64], [32, 16, 3, 5, 7], [0, 0, 0]),
    ("fam03", [8, 48, 64, 64, 64], [48, 48, 3, 3, 3], [0, 0, 0]),
    ("fam04", [64, 128, 65536], [128, 128, 3], [0]),
    ("fam05", [8, 64, 512, 512], [64, 64, 3, 7], [0, 0]),
    ("fam06", [64, 64, 128, 256], [64, 128, 3, 5], [0, 0]),
    ("fam07", [8, 48, 96, 96, 96], [48, 24, 3, 3, 3], [0, 0, 0]),
    ("fam11", [8, 32, 512, 1024], [32, 32, 3, 7], [1, 3]),
]
TORCH_FORWARD = {3: F.conv_transpose1d, 4: F.conv_transpose2d, 5: F.conv_transpose3d}


def main(argv=None) -> int:
    args = sweep_arguments(__doc__, argv)
    rows = []
    for mode, (name, x_shape, w_shape, padding) in [(m, shape) for m in args.precision
                                                    for shape in selected(SHAPES, args.only)]:
        dims = len(x_shape) - 2
        dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(mode, torch.float32)
        baseline = "auto" if dtype == torch.float32 else "igemm"
        x = torch.randn(x_shape, device="cuda").to(dtype)
        weight = torch.randn(w_shape, device="cuda").to(dtype)
        bias = torch.randn(w_shape[1], device="cuda").to(dtype)
        ones = [1] * dims
        row = {"shape": name, "precision": mode, "input": x_shape, "weight": w_shape, "padding": padding}
        with precision_mode(mode):
            outputs = {}
            for algorithm in (baseline, "igemm_strip"):
                with _ops.use_algorithm(algorithm):
                    fn = lambda: _ops.conv_transpose(x, weight, bias, ones, padding, [0] * dims, ones, 1)  # noqa: E731
                    outputs[algorithm] = fn()
                    row[f"forward_{algorithm}"] = time_cuda(fn, args.runs, 3).median_ms
            row["forward_torch"] = time_cuda(lambda: TORCH_FORWARD[x.dim()](x, weight, bias, 1, padding),
                                             args.runs, 3).median_ms
            # grad_input: the unit-stride forward of grad_output ("igemm_strip") against the gather GEMM ("igemm")
            grad = torch.randn_like(outputs[baseline])
            grads = {}
            for algorithm in ("igemm", "igemm_strip"):
                with _ops.use_algorithm(algorithm):
                    fn = lambda: _ops.conv_transpose_grad_input(  # noqa: E731
                        grad, weight, x_shape, ones, padding, ones, 1)
                    grads[algorithm] = fn()
                    row[f"grad_input_{algorithm}"] = time_cuda(fn, args.runs, 3).median_ms
        scale = outputs[baseline].abs().max().item()
        row["max_rel_difference"] = ((outputs["igemm_strip"] - outputs[baseline]).abs().max().item() /
                                     max(scale, 1e-30))
        row["strip_gain"] = row[f"forward_{baseline}"] / row["forward_igemm_strip"]
        grad_scale = grads["igemm"].abs().max().item()
        row["grad_input_max_rel_difference"] = ((grads["igemm_strip"] - grads["igemm"]).abs().max().item() /
                                                max(grad_scale, 1e-30))
        row["grad_input_strip_gain"] = row["grad_input_igemm"] / row["grad_input_igemm_strip"]
        del outputs, grads
        rows.append(row)
        print(f"{name:8s} {mode} forward {baseline} {row[f'forward_{baseline}']:7.3f}  "
              f"igemm_strip {row['forward_igemm_strip']:7.3f}  "
              f"torch {row['forward_torch']:7.3f}  (x{row['strip_gain']:.2f}, diff {row['max_rel_difference']:.1e})  "
              f"grad_input igemm {row['grad_input_igemm']:7.3f}  igemm_strip {row['grad_input_igemm_strip']:7.3f}  "
              f"(x{row['grad_input_strip_gain']:.2f}, diff {row['grad_input_max_rel_difference']:.1e})", flush=True)
    # The 1D strip kernels after run_strip_pipeline (runs 140, 143: forward 2.17, grad_input 1.78-1.88 ms).
    if (args.only and "hifigan" not in args.only) or "tf32" not in args.precision:
        return finish(args.json, rows)
    x = torch.randn(16, 512, 8192, device="cuda")
    weight = torch.randn(512, 256, 16, device="cuda")
    grad = torch.randn(16, 256, 65536, device="cuda")
    row = {"shape": "hifigan_strip_1d"}
    with precision_mode("tf32"), _ops.use_algorithm("auto"):
        row["forward_auto"] = time_cuda(lambda: _ops.conv_transpose(x, weight, None, [8], [4], [0], [1], 1),
                                        args.runs, 3).median_ms
        row["grad_input_auto"] = time_cuda(lambda: _ops.conv_transpose_grad_input(
            grad, weight, list(x.shape), [8], [4], [1], 1), args.runs, 3).median_ms
    rows.append(row)
    print(f"hifigan strip 1D: forward {row['forward_auto']:.3f} ms, grad_input {row['grad_input_auto']:.3f} ms",
          flush=True)
    return finish(args.json, rows)


if __name__ == "__main__":
    sys.exit(main())
