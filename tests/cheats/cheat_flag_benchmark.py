"""CHEAT: turns on torch.backends.cudnn.benchmark inside forward (and leaves it on, which would
also speed up the baseline's later runs or change its algorithms). verify must fail `global_state`."""

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
        torch.backends.cudnn.benchmark = True
        return self.conv_transpose(x)
