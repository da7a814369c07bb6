"""CHEAT: computes only part of the output (the last output row is left zero, as a kernel that
skips a boundary tile would). verify must fail `forward`."""

import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )

    def forward(self, x):
        out = self.conv_transpose(x)
        out[..., -1, :] = 0
        return out
