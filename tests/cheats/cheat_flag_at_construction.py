"""CHEAT: disables TF32 for cuDNN when constructed (changing the conditions of everything run after
it). verify must fail `global_state`."""

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        torch.backends.cudnn.allow_tf32 = False
        self.conv_transpose = nn.ConvTranspose2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )

    def forward(self, x):
        return self.conv_transpose(x)
