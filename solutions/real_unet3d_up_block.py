"""ModelNew for problems/real_unet3d_up_block.py: the up-convolution in tconv's conv kernels, then
LeakyReLU + GroupNorm as tconv's fused CUDA epilogue (statistics pass + normalising pass; fused
backward). The statistics are not yet accumulated inside the conv's store."""
import torch
import torch.nn as nn

import tconv
from tconv.fused import act_group_norm


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, num_groups, negative_slope):
        super().__init__()
        self.up = tconv.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride, bias=True)
        self.act = nn.LeakyReLU(negative_slope)
        self.norm = nn.GroupNorm(num_groups, out_channels)

    def forward(self, x):
        return act_group_norm(self.up(x), self.norm.num_groups, self.norm.weight, self.norm.bias, self.norm.eps,
                              "leaky_relu", {"negative_slope": self.act.negative_slope})
