"""Real model, DCGAN generator up-sampling: ConvTranspose2d, N=64, C 512->256, kernel 4, stride 2, padding 1, input 16x16."""
import torch
import torch.nn as nn

batch_size = 64
in_channels = 512
out_channels = 256
kernel_size = 4
height = 16
width = 16
stride = 2
padding = 1
output_padding = 0
groups = 1
bias = False
dilation = 1


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
