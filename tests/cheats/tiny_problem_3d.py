"""Tiny KernelBench-format problem for the CPU harness tests: asymmetric-kernel ConvTranspose3d."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )

    def forward(self, x):
        return self.conv_transpose(x)


batch_size = 2
in_channels = 4
out_channels = 4
kernel_size = (2, 3, 3)
stride = (2, 1, 2)
padding = (0, 1, 1)
output_padding = (1, 0, 0)
groups = 4
dilation = 1
bias = True
depth, height, width = 3, 4, 5


def get_inputs():
    return [torch.rand(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation]
