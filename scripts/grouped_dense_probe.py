"""Development probe: a grouped call of few channels per group against the same call as one dense (groups 1) call on
the block-diagonal weight, per pass, through tconv's ops. Not a report.

    python3 scripts/grouped_dense_probe.py [--layout channels_last] [--dtype bf16] [--runs 20] [--json OUT]

A grouped transposed convolution equals the dense one whose weight is zero between groups; grad_input is then the
dense grad_input, and the grouped grad_weight is the dense grad_weight's diagonal blocks. The dense call does
`groups` times the multiply-adds, on tensor-core paths built for many channels; these shapes are far from their
FLOP floor (L1-73: 3.6 GFLOP, ~0.6 GB a pass). Per shape and form: each pass's median (p20-p80) ms, each dense
result's largest difference from the grouped one (relative to the grouped result's largest magnitude), and eager's
forward and fwd+bwd medians for scale; each pass's kernels (one profiled call) in the JSON, and printed with
--kernels. The probe sets TCONV_GROUPED_DENSE_GRAD_INPUT=0 for itself, so that "grouped" stays grouped.
"""
import argparse
import json
import os
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

os.environ["TCONV_GROUPED_DENSE_GRAD_INPUT"] = "0"  # read at tconv's import
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tconv import _ops  # noqa: E402
from tconv._grouped_dense import block_diagonal_weight, diagonal_blocks  # noqa: E402
from tconv.harness.timing import time_cuda  # noqa: E402

# name: (dims, batch, c_in, c_out, groups, kernel, stride, padding, output_padding, dilation, spatial)
SHAPES = {
    "l1_73": (3, 4, 32, 32, 4, (3, 3, 3), (2, 2, 2), (1, 1, 1), (0, 0, 0), (1, 1, 1), (32, 64, 128)),
    "fam09": (2, 16, 32, 64, 4, (3, 5), (2, 3), (1, 2), (0, 0), (2, 1), (128, 256)),
    "l1_72": (3, 8, 32, 32, 4, (3, 5, 7), (2, 2, 2), (1, 2, 3), (1, 1, 1), (1, 1, 1), (12, 24, 48)),
}
# fp32: TF32 in tconv and eager alike under torch's default flags (cudnn.allow_tf32), which the probe leaves as they are
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}


def relative(a: torch.Tensor, b: torch.Tensor) -> float:
    return float((a.float() - b.float()).abs().max() / b.float().abs().max().clamp_min(1e-30))


def kernel_names(run) -> list:
    """The CUDA kernels one call of `run` launches, in order (names cut to 100 characters)."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        run()
        torch.cuda.synchronize()
    return [e.name[:100] for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]


def ms(stats) -> dict:
    return {"median": stats.median_ms, "p20": stats.p20_ms, "p80": stats.p80_ms}


def probe(name: str, dtype: torch.dtype, layout: str, runs: int) -> dict:
    dims, batch, c_in, c_out, groups, kernel, stride, padding, output_padding, dilation, spatial = SHAPES[name]
    fmt = {2: torch.channels_last, 3: torch.channels_last_3d}[dims] if layout == "channels_last" else \
        torch.contiguous_format
    gen = torch.Generator(device="cuda").manual_seed(7)
    x = torch.randn((batch, c_in) + spatial, device="cuda", generator=gen).to(dtype).contiguous(memory_format=fmt)
    w = (torch.randn((c_in, c_out // groups) + kernel, device="cuda", generator=gen) * 0.1).to(dtype)
    dense_w = block_diagonal_weight(w, groups)
    args = (list(stride), list(padding), list(output_padding), list(dilation))
    y = _ops.conv_transpose_cuda(x, w, None, *args, groups)
    gy = torch.randn(y.shape, device="cuda", generator=gen).to(dtype).contiguous(memory_format=fmt)
    row = {"shape": name, "dtype": str(dtype), "layout": layout}
    for form, weight, g in (("grouped", w, groups), ("dense", dense_w, 1)):
        passes = {
            "forward": lambda: _ops.conv_transpose_cuda(x, weight, None, *args, g),
            "grad_input": lambda: _ops.conv_transpose_grad_input_cuda(gy, weight, list(x.shape), list(stride),
                                                                      list(padding), list(dilation), g),
            "grad_weight": lambda: _ops.conv_transpose_grad_weight_cuda(gy, x, list(weight.shape), list(stride),
                                                                        list(padding), list(dilation), g),
        }
        row[form] = {p: ms(time_cuda(run, runs, 3)) for p, run in passes.items()}
        row[form]["sum"] = sum(row[form][p]["median"] for p in passes)
        results = {p: run() for p, run in passes.items()}
        row[form]["kernels"] = {p: kernel_names(run) for p, run in passes.items()}
        if form == "grouped":
            reference = results
        else:
            row["dense_error"] = {
                "forward": relative(results["forward"], reference["forward"]),
                "grad_input": relative(results["grad_input"], reference["grad_input"]),
                "grad_weight": relative(diagonal_blocks(results["grad_weight"], groups), reference["grad_weight"]),
            }
    conv = {2: F.conv_transpose2d, 3: F.conv_transpose3d}[dims]
    xe = x.detach().clone().requires_grad_(True)
    we = w.detach().clone().requires_grad_(True)

    def eager_forward():
        with torch.no_grad():
            conv(x, w, None, stride, padding, output_padding, groups, dilation)

    def eager_fwdbwd():
        conv(xe, we, None, stride, padding, output_padding, groups, dilation).backward(gy)

    def clear():
        xe.grad = we.grad = None

    row["eager"] = {"forward": ms(time_cuda(eager_forward, runs, 3)),
                    "fwdbwd": ms(time_cuda(eager_fwdbwd, runs, 3, before_each=clear))}
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("shapes", nargs="*", default=list(SHAPES))
    parser.add_argument("--dtype", choices=list(DTYPES), default="bf16")
    parser.add_argument("--layout", choices=["contiguous", "channels_last"], default="channels_last")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--kernels", action="store_true", help="print each pass's CUDA kernels (one profiled call)")
    parser.add_argument("--json", type=Path)
    a = parser.parse_args()
    rows = []
    for name in a.shapes:
        row = probe(name, DTYPES[a.dtype], a.layout, a.runs)
        rows.append(row)
        line = f"{name} {a.dtype} {a.layout}:"
        for form in ("grouped", "dense"):
            times = " / ".join(f"{row[form][p]['median']:.3f}" for p in ("forward", "grad_input", "grad_weight"))
            line += f" {form} {times} (sum {row[form]['sum']:.3f})"
        line += f"; eager {row['eager']['forward']['median']:.3f} / f+b {row['eager']['fwdbwd']['median']:.3f} ms"
        line += "; dense error " + ", ".join(f"{p} {v:.1e}" for p, v in row["dense_error"].items())
        print(line, flush=True)
        if a.kernels:
            for form in ("grouped", "dense"):
                for p, names in row[form]["kernels"].items():
                    print(f"  {form} {p}: " + "; ".join(names), flush=True)
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
