"""ModelNew for problems/l2_61_convt3d_relu_groupnorm.py: ConvTranspose3d -> ReLU -> GroupNorm as tconv's fused block
(tconv.fused.conv_act_group_norm_forward, one op on CUDA): the conv runs in tconv's kernels, then ReLU + GroupNorm as
tconv's epilogue (one normalising pass); the backward is the epilogue's (one reduction, one elementwise pass), then
tconv's conv backward. The GroupNorm statistics: for fp32 data in TF32 mode the conv's store makes them (run 554:
forward 1.267 -> 1.237 ms); in exact fp32 and in fp16/bf16 a statistics pass over the conv output does (the store's
form lost in bf16, run 555); see tconv.fused.CONV_STORE_STATISTICS."""
import torch.nn as nn

import tconv
from tconv.fused import conv_act_group_norm_forward


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, groups, bias=False):
        super().__init__()
        self.conv_transpose = tconv.ConvTranspose3d(in_channels, out_channels, kernel_size, bias=bias)
        self.relu = nn.ReLU()
        self.group_norm = nn.GroupNorm(num_groups=groups, num_channels=out_channels)

    def forward(self, x):
        return conv_act_group_norm_forward(self.conv_transpose, x, None, self.group_norm, "relu")
