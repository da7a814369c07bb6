"""Tiny KernelBench-format problem for the CPU harness tests: grouped, strided ConvTranspose2d
with padding and output_padding (the features a partial or wrong kernel gets wrong first)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )

    def forward(self, x):
        return self.conv_transpose(x)


batch_size = 2
in_channels = 4
out_channels = 6
kernel_size = (3, 3)
stride = 2
padding = 1
output_padding = 1
groups = 2
dilation = 1
bias = True
height = 5
width = 7


def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation]
