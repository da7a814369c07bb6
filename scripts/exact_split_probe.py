"""Whether the wgmma kernels' own fp32 accumulation keeps a 3xTF32 split inside the exact-fp32 contract over a whole
K, measured before building the split into them.

Why: exact fp32 (TF32 off) runs on the mma.sync 3xTF32 kernels, which sum each stage's products in fresh registers
and add them with fp32 adds, because accumulating across all of K inside the tensor cores broke allclose(1e-4) by 3x
on L1-68's grad_input (mma_sm80.h). A 3xTF32 form of the wide-rows unit-stride forward (L2-61's 5.27 ms exact
forward, 3.36x eager against issue 5's 7x; fam06's 0.53x) has no registers for a second accumulator (128 a thread at
the 168-register cap), so it would accumulate big*big + big*small + small*big into the wgmma accumulators directly.
Whether that holds on Hopper's wgmma is the question this answers without a new kernel: tconv's TF32 path, on
operands split beforehand, is exactly that kernel accumulating one term over the whole K.

    python3 scripts/exact_split_probe.py l2_61_convt3d_relu_groupnorm fam06_convt2d_k3x5_128x256 [--json OUT]

Per problem (its first transposed convolution, bias included, the problem's inputs): the worst fp32_violations
(at most 1 means allclose(atol = 1e-4 max(1, rms), rtol = 1e-4) holds on every element, DESIGN.md section 3) against
float64 of
  tf32         tconv's TF32 mode as it is (one rounded term);
  split_terms  the three terms as three TF32-mode calls on TF32-exact parts (x = xb + xs, w = wb + ws), each summed
               over K in the kernel's accumulators, then added in fp32 (small terms first) - an upper estimate of the
               in-kernel form's error, whose big*big sum is this one and whose small terms are 2^-11 of it;
  exact        tconv's exact mode (TF32 off) as it is;
and the kernels the TF32 calls ran, so that the numbers are the wgmma kernel's.
"""
import argparse
import sys

import torch

from dev_common import build_model, finish
import tconv
from tconv.harness.compare import fp32_violations, round_to_tf32
from tconv.harness.precision import precision_mode

_CONVS = (torch.nn.ConvTranspose1d, torch.nn.ConvTranspose2d, torch.nn.ConvTranspose3d)


def first_conv(stem: str):
    """The problem's first transposed convolution and its input, fp32 on the GPU (the original Model, seeded)."""
    model, inputs = build_model(stem, "fp32", which="original")
    return next(m for m in model.modules() if isinstance(m, _CONVS)), inputs[0]


def conv_call(conv, x, weight, bias):
    functional = {1: tconv.conv_transpose1d, 2: tconv.conv_transpose2d, 3: tconv.conv_transpose3d}[x.dim() - 2]
    return functional(x, weight, bias, conv.stride, conv.padding, conv.output_padding, conv.groups, conv.dilation)


def probe(stem: str) -> dict:
    conv, x = first_conv(stem)
    w, b = conv.weight.detach(), None if conv.bias is None else conv.bias.detach()
    with torch.no_grad():
        reference = torch.nn.functional.conv_transpose3d if x.dim() == 5 else (
            torch.nn.functional.conv_transpose2d if x.dim() == 4 else torch.nn.functional.conv_transpose1d)
        y64 = reference(x.double(), w.double(), None if b is None else b.double(), conv.stride, conv.padding,
                        conv.output_padding, conv.groups, conv.dilation)
        xb, wb = round_to_tf32(x), round_to_tf32(w)
        xs, ws = x - xb, w - wb
        row = {"problem": stem}
        with precision_mode("tf32"):
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                y = conv_call(conv, x, w, b)
                torch.cuda.synchronize()
            row["kernels"] = sorted({e.name[:120] for e in prof.events()
                                     if e.device_type == torch.autograd.DeviceType.CUDA})
            row["tf32"] = float(fp32_violations(y, y64).max())
            del y
            # The bias once, in the big term
            small = conv_call(conv, xs, wb, None) + conv_call(conv, xb, ws, None)
            split = small + conv_call(conv, xb, wb, b)
            row["split_terms"] = float(fp32_violations(split, y64).max())
            del small, split
        with precision_mode("fp32"):
            row["exact"] = float(fp32_violations(conv_call(conv, x, w, b), y64).max())
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("problems", nargs="+")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    rows = []
    for stem in args.problems:
        row = probe(stem)
        rows.append(row)
        print(f"{stem}: worst fp32 violation tf32 {row['tf32']:.3g}, split terms {row['split_terms']:.3g}, "
              f"exact {row['exact']:.3g} (<= 1 holds); kernels {row['kernels']}", flush=True)
    return finish(args.json, rows)


if __name__ == "__main__":
    sys.exit(main())
