"""tconv.functional: drop-in replacements of torch.nn.functional.conv_transpose{1,2,3}d."""
import torch

from . import _args, _ops

__all__ = ["conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]


def _conv_transpose_nd(dims, op_name, input, weight, bias, stride, padding, output_padding, groups, dilation):
    if not isinstance(input, torch.Tensor) or not isinstance(weight, torch.Tensor):
        raise TypeError(f"{op_name}(): argument 'input' and 'weight' must be Tensors")
    unbatched = _args.check_input_dims(input, dims, op_name)
    if unbatched:
        input = input.unsqueeze(0)
    stride, padding, output_padding, dilation = _args.check_conv_transpose_args(
        input, weight, bias, stride, padding, output_padding, dilation, groups, dims, op_name)
    out = _ops.conv_transpose(input, weight, bias, list(stride), list(padding), list(output_padding),
                              list(dilation), groups)
    return out.squeeze(0) if unbatched else out


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Same signature and semantics as torch.nn.functional.conv_transpose1d."""
    return _conv_transpose_nd(1, "conv_transpose1d", input, weight, bias, stride, padding, output_padding,
                              groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Same signature and semantics as torch.nn.functional.conv_transpose2d."""
    return _conv_transpose_nd(2, "conv_transpose2d", input, weight, bias, stride, padding, output_padding,
                              groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Same signature and semantics as torch.nn.functional.conv_transpose3d."""
    return _conv_transpose_nd(3, "conv_transpose3d", input, weight, bias, stride, padding, output_padding,
                              groups, dilation)
