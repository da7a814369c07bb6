"""CHEAT: allocates the output with torch.empty and writes all but its last row, leaving those
elements as whatever the allocator hands back. With NaN-poisoned CUDA memory they read NaN, so
verify must fail `nan_poison` (and `forward`) on CUDA."""

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )

    def forward(self, x):
        full = self.conv_transpose(x)
        out = torch.empty_like(full)
        out[..., :-1, :] = full[..., :-1, :]
        return out
