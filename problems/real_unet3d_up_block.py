"""Real model, 3D U-Net decoder block: ConvTranspose3d (N=2, C 256->128, kernel 2, stride 2, bias,
input 32x32x32) -> LeakyReLU(0.01) -> GroupNorm(16 groups, 128 channels). The fusion issue's block target."""
import torch
import torch.nn as nn

batch_size = 2
in_channels = 256
out_channels = 128
kernel_size = 2
depth = 32
height = 32
width = 32
stride = 2
num_groups = 16
negative_slope = 0.01


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, num_groups, negative_slope):
        super().__init__()
        self.up = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride, bias=True)
        self.act = nn.LeakyReLU(negative_slope)
        self.norm = nn.GroupNorm(num_groups, out_channels)

    def forward(self, x):
        return self.norm(self.act(self.up(x)))


def get_inputs():
    return [torch.rand(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, num_groups, negative_slope]
