"""Solution for the tiny problems that runs PyTorch's convolution the way tconv's documented CPU
fallback does: inside torch.profiler.record_function("tconv.cpu_fallback"), forward and backward.
verify must not flag it on CPU (the exemption is CPU-only)."""

import torch
import torch.nn as nn
from torch.profiler import record_function

_CONV_TRANSPOSE = {1: nn.ConvTranspose1d, 2: nn.ConvTranspose2d, 3: nn.ConvTranspose3d}


class _FallbackConvTranspose(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias, conv):
        ctx.save_for_backward(x, weight)
        ctx.conv = conv
        ctx.has_bias = bias is not None
        with record_function("tconv.cpu_fallback"):
            return torch.ops.aten.convolution(
                x, weight, bias, conv.stride, conv.padding, conv.dilation, True, conv.output_padding, conv.groups
            )

    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        conv = ctx.conv
        with record_function("tconv.cpu_fallback"):
            grad_x, grad_weight, grad_bias = torch.ops.aten.convolution_backward(
                grad_output, x, weight, [weight.shape[1] * conv.groups] if ctx.has_bias else None,
                conv.stride, conv.padding, conv.dilation, True, conv.output_padding, conv.groups,
                [True, True, ctx.has_bias],
            )
        return grad_x, grad_weight, grad_bias, None


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation):
        super().__init__()
        self.conv_transpose = _CONV_TRANSPOSE[len(kernel_size)](
            in_channels, out_channels, kernel_size, stride=stride, padding=padding,
            output_padding=output_padding, groups=groups, bias=bias, dilation=dilation,
        )

    def forward(self, x):
        conv = self.conv_transpose
        return _FallbackConvTranspose.apply(x, conv.weight, conv.bias, conv)
