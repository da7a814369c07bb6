"""CHEAT: hides torch's convolution behind a custom autograd.Function and a profiler scope with an
innocent name (not tconv's CPU-fallback scope). verify must fail `no_torch_conv`."""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.profiler import record_function


class _Hidden(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias, conv):
        ctx.save_for_backward(x, weight)
        ctx.conv = conv
        with record_function("tconv.implicit_gemm"):
            return F.conv_transpose2d(x, weight, bias, conv.stride, conv.padding, conv.output_padding, conv.groups, conv.dilation)

    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        conv = ctx.conv
        grad_x, grad_weight, grad_bias = torch.ops.aten.convolution_backward(
            grad_output, x, weight, [weight.shape[1] * conv.groups], conv.stride, conv.padding,
            conv.dilation, True, conv.output_padding, conv.groups, [True, True, True],
        )
        return grad_x, grad_weight, grad_bias, None


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )

    def forward(self, x):
        conv = self.conv_transpose
        return _Hidden.apply(x, conv.weight, conv.bias, conv)
