"""CHEAT: computes in bfloat16 and casts the result back to fp32 (lower precision than the
contract). verify must fail `forward` in fp32 (exact) mode."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )

    def forward(self, x):
        conv = self.conv_transpose
        out = F.conv_transpose2d(
            x.to(torch.bfloat16), conv.weight.to(torch.bfloat16), conv.bias.to(torch.bfloat16),
            conv.stride, conv.padding, conv.output_padding, conv.groups, conv.dilation,
        )
        return out.to(x.dtype)
