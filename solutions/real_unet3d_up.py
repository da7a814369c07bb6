"""ModelNew for problems/real_unet3d_up.py: the transposed convolution runs in tconv's kernels."""
import torch
import torch.nn as nn

import tconv


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=False, dilation=1):
        super().__init__()
        self.conv_transpose3d = tconv.ConvTranspose3d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation)

    def forward(self, x):
        return self.conv_transpose3d(x)
