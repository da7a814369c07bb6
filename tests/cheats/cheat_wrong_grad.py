"""CHEAT: exact forward, but the weight gradient is off by 0.1% (a custom autograd.Function with a
wrong backward). verify must fail `grad_params` and pass `forward` and `grad_input`."""

import torch
import torch.nn as nn


class _WrongWeightGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias, conv):
        ctx.save_for_backward(x, weight)
        ctx.conv = conv
        return torch.ops.aten.convolution(
            x, weight, bias, conv.stride, conv.padding, conv.dilation, True, conv.output_padding, conv.groups
        )

    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        conv = ctx.conv
        grad_x, grad_weight, grad_bias = torch.ops.aten.convolution_backward(
            grad_output, x, weight, [weight.shape[1] * conv.groups], conv.stride, conv.padding,
            conv.dilation, True, conv.output_padding, conv.groups, [True, True, True],
        )
        return grad_x, grad_weight * 1.001, grad_bias, None


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )

    def forward(self, x):
        conv = self.conv_transpose
        return _WrongWeightGrad.apply(x, conv.weight, conv.bias, conv)
