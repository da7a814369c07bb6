"""Honest stand-in solution for the tiny problems: ModelNew runs PyTorch's own ConvTranspose
(1d/2d/3d chosen from len(kernel_size)). Correct, but uses torch's convolution, so verify passes it
only with check_torch_conv=False."""

import torch.nn as nn

_CONV_TRANSPOSE = {1: nn.ConvTranspose1d, 2: nn.ConvTranspose2d, 3: nn.ConvTranspose3d}


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        self.conv_transpose = _CONV_TRANSPOSE[len(kernel_size)](
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )

    def forward(self, x):
        return self.conv_transpose(x)
