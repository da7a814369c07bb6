"""Rounds inputs and weights to TF32 before an fp32 convolution (what TF32 tensor cores do).
Allowed in tf32 mode; in fp32 (exact) mode it is lower precision than the contract, and verify
must fail `forward`."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def round_to_tf32(t):
    """Nearest TF32 value (10 mantissa bits), gradient passed straight through."""
    bits = t.detach().contiguous().view(torch.int32)
    rounded = ((bits + (1 << 12)) & ~((1 << 13) - 1)).view(torch.float32)
    return t + (rounded - t).detach()


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )

    def forward(self, x):
        conv = self.conv_transpose
        return F.conv_transpose2d(
            round_to_tf32(x), round_to_tf32(conv.weight), conv.bias,
            conv.stride, conv.padding, conv.output_padding, conv.groups, conv.dilation,
        )
