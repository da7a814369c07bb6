"""Family 04: ConvTranspose1d, N=64, C 128->128, kernel 3, input 65536."""
import torch
import torch.nn as nn

batch_size = 64
in_channels = 128
out_channels = 128
kernel_size = 3
length = 65536
stride = 1
padding = 0
output_padding = 0
groups = 1
bias = False
dilation = 1


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=False, dilation=1):
        super().__init__()
        self.conv_transpose1d = nn.ConvTranspose1d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation)

    def forward(self, x):
        return self.conv_transpose1d(x)


def get_inputs():
    return [torch.rand(batch_size, in_channels, length)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation]
