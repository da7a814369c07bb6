"""CHEAT: reuses the input's memory as scratch space after the forward (an in-place write into the
caller's tensor). verify must fail `inputs_unmutated`."""

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
        out = self.conv_transpose(x)
        with torch.no_grad():
            x.mul_(0.5)
        return out
