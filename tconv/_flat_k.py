"""grad_weight with K over grad_output's flat positions: the index math of a planned kernel, in pure torch.

For a transposed convolution with stride 1, dilation 1 and padding 0 (L2-61, the "valid" up-convs of U-Nets), output
position o gets input position o - k through tap k, so

    grad_weight[ci, co, k] = sum over n and o of x[n, ci, o - k] * grad_output[n, co, o].

Embed x in grad_output's grid (x_g: the output's D x H x W, x in its first D_in x H_in x W_in, zeros in the last k - 1
of each dimension). Then, over one image's flat positions q = (d H_out + h) W_out + w, tap k reads x_g at q - flat(k),
flat(k) = (kd H_out + kh) W_out + kw, for every q: where a component of o - k is negative, the flat index wraps onto
the zeros of the dimension below (W_out - j >= W_in for j < kW; likewise H), or falls before the image (zero). So each
tap is one GEMM over K = the image's flat positions with B shifted by a constant, without bounds checks and without
padding W lines to whole tiles (L2-61: 34 positions a line, which the wgmma rows kernel pads to 48). notes/perf.md
("Session 60", Next 3) counts the kernel this describes; tests/test_flat_k_cpu.py checks this reference against
torch's own gradient, so the planned kernel's tests can check against it.
"""
from typing import List, Sequence

import torch
import torch.nn.functional as F


def applies(stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int],
            output_padding: Sequence[int]) -> bool:
    """Where the flat shifts are exact: unit stride and dilation, no padding (output padding is then 0 too)."""
    return all(s == 1 for s in stride) and all(d == 1 for d in dilation) and all(p == 0 for p in padding) and \
        all(op == 0 for op in output_padding)


def flat_offsets(kernel: Sequence[int], out_size: Sequence[int]) -> List[int]:
    """flat(k) for every tap k in the weight's (kD, kH, kW) order, over the output grid's strides."""
    dims = len(kernel)
    strides = [1] * dims
    for i in range(dims - 2, -1, -1):
        strides[i] = strides[i + 1] * out_size[i + 1]
    offsets = [0]
    for k, stride in zip(kernel, strides):
        offsets = [o + t * stride for o in offsets for t in range(k)]
    return offsets


def embed_input(x: torch.Tensor, out_size: Sequence[int]) -> torch.Tensor:
    """x_g: x in the first in_size positions of each dimension of an out_size grid, zeros elsewhere."""
    x_g = x.new_zeros(*x.shape[:2], *out_size)
    x_g[(slice(None), slice(None)) + tuple(slice(0, s) for s in x.shape[2:])] = x
    return x_g


def grad_weight(x: torch.Tensor, grad_output: torch.Tensor, kernel: Sequence[int]) -> torch.Tensor:
    """grad_weight ([C_in, C_out, *kernel], groups 1) by flat shifts, in x's dtype with its precision."""
    out_size = list(grad_output.shape[2:])
    n, c_in = x.shape[:2]
    c_out = grad_output.shape[1]
    positions = 1
    for s in out_size:
        positions *= s
    offsets = flat_offsets(kernel, out_size)
    reach = max(offsets)
    x_flat = F.pad(embed_input(x, out_size).reshape(n, c_in, positions), (reach, 0))  # zeros before the image
    dy_flat = grad_output.reshape(n, c_out, positions)
    taps = [torch.einsum("nip,nop->io", x_flat[:, :, reach - off:reach - off + positions], dy_flat)
            for off in offsets]
    return torch.stack(taps, dim=-1).reshape(c_in, c_out, *kernel)
