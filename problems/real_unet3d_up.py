"""Real model, 3D U-Net decoder up-sampling: ConvTranspose3d, N=2, C 256->128, kernel 2, stride 2, bias, input 32x32x32."""
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
padding = 0
output_padding = 0
groups = 1
bias = True
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
