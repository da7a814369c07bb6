"""CHEAT: initialises the weight differently from the original module (same names and shapes,
other values). verify must fail `params_match`."""

import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )
        nn.init.xavier_uniform_(self.conv_transpose.weight)

    def forward(self, x):
        return self.conv_transpose(x)
