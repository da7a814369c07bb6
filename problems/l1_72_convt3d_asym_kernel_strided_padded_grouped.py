"""KernelBench L1-72: ConvTranspose3d, N=8, C 32->32, kernel 3x5x7, stride 2, padding 1x2x3, output padding 1, groups 4, input 12x24x48."""
import torch
import torch.nn as nn

batch_size = 8
in_channels = 32
out_channels = 32
kernel_size = (3, 5, 7)
depth = 12
height = 24
width = 48
stride = 2
padding = (1, 2, 3)
output_padding = 1
groups = 4
bias = False
dilation = 1


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=False, dilation=1):
        super().__init__()
        self.conv_transpose3d = nn.ConvTranspose3d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation)

    def forward(self, x):
        return self.conv_transpose3d(x)


def get_inputs():
    return [torch.rand(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation]
