"""Tiny KernelBench-format problem for the CPU harness tests, shaped like KernelBench L2-61:
ConvTranspose3d, ReLU, GroupNorm (several parameter tensors, only one convolution)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, groups, bias=False):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, bias=bias)
        self.relu = nn.ReLU()
        self.group_norm = nn.GroupNorm(num_groups=groups, num_channels=out_channels)

    def forward(self, x):
        return self.group_norm(self.relu(self.conv_transpose(x)))


batch_size = 2
in_channels = 3
out_channels = 4
kernel_size = 3
groups = 2
depth, height, width = 3, 4, 4


def get_inputs():
    return [torch.rand(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, groups]
