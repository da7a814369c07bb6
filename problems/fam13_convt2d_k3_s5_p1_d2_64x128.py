"""Family 13: ConvTranspose2d, N=16, C 32->64, kernel 3, stride 5, padding 1, dilation 2, input 64x128."""
import torch
import torch.nn as nn

batch_size = 16
in_channels = 32
out_channels = 64
kernel_size = 3
height = 64
width = 128
stride = 5
padding = 1
output_padding = 0
groups = 1
bias = False
dilation = 2


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=False, dilation=1):
        super().__init__()
        self.conv_transpose2d = nn.ConvTranspose2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation)

    def forward(self, x):
        return self.conv_transpose2d(x)


def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation]
