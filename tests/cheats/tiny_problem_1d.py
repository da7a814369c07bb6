"""Tiny KernelBench-format problem for the CPU harness tests: dilated, strided ConvTranspose1d."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose1d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )

    def forward(self, x):
        return self.conv_transpose(x)


batch_size = 3
in_channels = 6
out_channels = 4
kernel_size = (5,)
stride = 3
padding = 2
output_padding = 1
groups = 1
dilation = 2
bias = False
length = 11


def get_inputs():
    return [torch.rand(batch_size, in_channels, length)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation]
