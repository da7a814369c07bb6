"""Honest solution for the tiny problems that never calls a torch convolution: the transposed
convolution is a sum over kernel taps of a grouped matrix product (einsum), each scattered into
a strided slice of the output. Slow, autograd-differentiable; passes verify with
check_torch_conv=True in fp32/tf32. In fp16/bf16 it sums the taps in that dtype (one rounding per
tap instead of one fp32 accumulation), and verify rightly rejects it there."""

import itertools

import torch
import torch.nn as nn

_CONV_TRANSPOSE = {1: nn.ConvTranspose1d, 2: nn.ConvTranspose2d, 3: nn.ConvTranspose3d}


def conv_transpose_by_taps(x, weight, bias, stride, padding, output_padding, groups, dilation):
    batch, in_channels, *in_size = x.shape
    dims = len(in_size)
    out_per_group = weight.shape[1]
    kernel = weight.shape[2:]
    # Uncropped output: every tap of every input position lands inside it.
    full_size = [(i - 1) * s + d * (k - 1) + 1 + op for i, s, d, k, op in zip(in_size, stride, dilation, kernel, output_padding)]
    out_size = [f - 2 * p for f, p in zip(full_size, padding)]
    full = x.new_zeros(batch, groups * out_per_group, *full_size)
    x_grouped = x.reshape(batch, groups, in_channels // groups, -1)
    w_grouped = weight.reshape(groups, in_channels // groups, out_per_group, *kernel)
    for tap in itertools.product(*(range(k) for k in kernel)):
        contribution = torch.einsum("ngcp,gcd->ngdp", x_grouped, w_grouped[(slice(None),) * 3 + tap])
        contribution = contribution.reshape(batch, groups * out_per_group, *in_size)
        window = tuple(slice(t * d, t * d + (i - 1) * s + 1, s) for t, d, i, s in zip(tap, dilation, in_size, stride))
        full[(slice(None), slice(None)) + window] += contribution
    out = full[(slice(None), slice(None)) + tuple(slice(p, p + o) for p, o in zip(padding, out_size))]
    if bias is not None:
        out = out + bias.reshape(1, -1, *([1] * dims))
    return out


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        # Same parameters (names, shapes, initialisation) as the problem's module.
        self.conv_transpose = _CONV_TRANSPOSE[len(kernel_size)](
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )

    def forward(self, x):
        conv = self.conv_transpose
        return conv_transpose_by_taps(
            x, conv.weight, conv.bias, conv.stride, conv.padding, conv.output_padding, conv.groups, conv.dilation
        )
