"""CHEAT: snapshots the weight at construction (as a "pre-transformed" copy) and computes with the
snapshot; gradients still flow to the real parameter, so everything matches until the parameters
change. verify must fail `perturbed_params`."""

import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )
        self._weight_snapshot = self.conv_transpose.weight.detach().clone()

    def forward(self, x):
        conv = self.conv_transpose
        # Value of the snapshot, gradient of the live parameter.
        weight = conv.weight + (self._weight_snapshot - conv.weight).detach()
        return F.conv_transpose2d(
            x, weight, conv.bias, conv.stride, conv.padding, conv.output_padding, conv.groups, conv.dilation
        )
