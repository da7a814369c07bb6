"""KernelBench L2-61: ConvTranspose3d -> ReLU -> GroupNorm(8 groups), N=16, C 64->128, kernel 3, input 32x32x32."""
import torch
import torch.nn as nn

batch_size = 16
in_channels = 64
out_channels = 128
kernel_size = 3
depth = 32
height = 32
width = 32
groups = 8
bias = False


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, groups, bias=False):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, bias=bias)
        self.relu = nn.ReLU()
        self.group_norm = nn.GroupNorm(num_groups=groups, num_channels=out_channels)

    def forward(self, x):
        x = self.conv_transpose(x)
        x = self.relu(x)
        x = self.group_norm(x)
        return x


def get_inputs():
    return [torch.rand(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, groups, bias]
