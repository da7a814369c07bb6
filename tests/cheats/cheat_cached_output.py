"""CHEAT: computes the output once and returns it for every later call, whatever the input.
verify must fail `cached_output`."""

import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )
        self._cached_output = None

    def forward(self, x):
        if self._cached_output is None:
            self._cached_output = self.conv_transpose(x).detach()
        return self._cached_output.clone().requires_grad_()
