"""Argument rules of transposed convolution, shared by every path (CUDA, CPU, fake kernels).

PyTorch's rules, error types and messages are mirrored here once, so tconv rejects exactly what
torch.nn.functional.conv_transpose{1,2,3}d rejects, with the same exception type. Output shapes and
the output memory format are decided here too, so real and fake kernels cannot disagree.
"""
import importlib
from typing import List, Optional, Sequence, Tuple

import torch

_INT_TYPES = (int, torch.SymInt) if hasattr(torch, "SymInt") else (int,)
_SPATIAL_NAMES = {1: ("width",), 2: ("height", "width"), 3: ("depth", "height", "width")}


def expand_param(value, dims: int, name: str) -> Tuple[int, ...]:
    """An int or a sequence of 1 or `dims` ints -> a `dims`-tuple (torch's rule and messages)."""
    if isinstance(value, bool) or not isinstance(value, _INT_TYPES + (Sequence,)):
        raise TypeError(f"argument '{name}' must be tuple of ints, not {type(value).__name__}")
    if isinstance(value, _INT_TYPES):
        return (value,) * dims
    values = tuple(value)
    for v in values:
        if isinstance(v, bool) or not isinstance(v, _INT_TYPES):
            raise TypeError(f"argument '{name}' must be tuple of ints, but found element of type {type(v).__name__}")
    if len(values) == 1:
        return values * dims
    if len(values) != dims:
        raise RuntimeError(
            f"expected {name} to be a single integer value or a list of {dims} values to match the "
            f"convolution dimensions, but got {name}={list(values)}")
    return values


def output_size(in_size: Sequence[int], kernel: Sequence[int], stride: Sequence[int], padding: Sequence[int],
                output_padding: Sequence[int], dilation: Sequence[int]) -> List[int]:
    """O = (I - 1) * s - 2 * p + d * (K - 1) + op + 1, per spatial dim."""
    return [(i - 1) * s - 2 * p + d * (k - 1) + op + 1
            for i, k, s, p, op, d in zip(in_size, kernel, stride, padding, output_padding, dilation)]


def _type_name(t: torch.Tensor) -> str:
    return t.type()


def check_input_dims(input: torch.Tensor, dims: int, op_name: str) -> bool:
    """Raises like torch for a wrong rank; returns True when the input is unbatched."""
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(
            f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {op_name}, "
            f"but got input of size: {list(input.shape)}")
    return input.dim() == dims + 1


def remember(cache: dict, key, value, limit: int = 1024):
    """cache[key] = value, returned; the cache is emptied first once it holds `limit` entries (a model calls with a
    few argument sets, a sweep over shapes must not grow it without bound)."""
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value
    return value


# Calls that passed the checks, by everything the checks read (the tensors' metadata and the arguments). A model
# calls with the same arguments every step, and the checks' Python took ~40 us of host time per call (run 330, H200,
# DCGAN: cProfile). Failing calls are never stored, so they raise every time.
_VALIDATED = {}


def _compiling_test():
    """torch.compiler.is_compiling (torch >= 2.3), else torch._dynamo's (2.0-2.2), else none (1.13: no compiler)."""
    test = getattr(getattr(torch, "compiler", None), "is_compiling", None)
    if test is None and hasattr(torch, "compile"):
        try:  # torch._dynamo is not imported by `import torch` there
            test = getattr(importlib.import_module("torch._dynamo"), "is_compiling", None)
        except ImportError:  # pragma: no cover
            test = None
    return test or (lambda: False)


_is_compiling = _compiling_test()


def _plain_int_key(value):
    """`value` as a hashable key part when it is an int or a tuple/list of ints (bools and SymInts excluded: True
    hashes like 1 and must still raise); None otherwise (the call is not cached)."""
    if type(value) is int:
        return value
    if type(value) in (tuple, list) and all(type(v) is int for v in value):
        return tuple(value)
    return None


def _metadata_key(t: Optional[torch.Tensor]):
    return None if t is None else (t.shape, t.dtype, t.device)


def check_conv_transpose_args(input: torch.Tensor, weight: torch.Tensor, bias: Optional[torch.Tensor],
                              stride, padding, output_padding, dilation, groups: int, dims: int, op_name: str):
    """Validates a batched call; returns (stride, padding, output_padding, dilation) as tuples."""
    params = (_plain_int_key(stride), _plain_int_key(padding), _plain_int_key(output_padding),
              _plain_int_key(dilation), _plain_int_key(groups))
    key = None
    # Never under torch.compile: a traced lookup would guard the compiled frame on the dict, and every new eager
    # argument set would then recompile it (tests/test_api_cpu.py). The checks cost nothing at run time there.
    if None not in params and not _is_compiling():
        key = (dims, op_name, _metadata_key(input), _metadata_key(weight), _metadata_key(bias)) + params
        try:
            cached = _VALIDATED.get(key)
        except TypeError:  # symbolic sizes (torch.compile's dynamic shapes) do not hash
            key, cached = None, None
        if cached is not None:
            return cached
    checked = _check_conv_transpose_args(input, weight, bias, stride, padding, output_padding, dilation, groups, dims,
                                         op_name)
    if key is not None:
        remember(_VALIDATED, key, checked)
    return checked


def _check_conv_transpose_args(input: torch.Tensor, weight: torch.Tensor, bias: Optional[torch.Tensor],
                               stride, padding, output_padding, dilation, groups: int, dims: int, op_name: str):
    stride = expand_param(stride, dims, "stride")
    padding = expand_param(padding, dims, "padding")
    output_padding = expand_param(output_padding, dims, "output_padding")
    dilation = expand_param(dilation, dims, "dilation")
    if isinstance(groups, bool) or not isinstance(groups, _INT_TYPES):
        raise TypeError(f"{op_name}(): argument 'groups' must be int, not {type(groups).__name__}")
    if weight.dim() != dims + 2:
        raise RuntimeError(
            f"Expected {dims + 2}-dimensional weight for {op_name}, but got {weight.dim()}-dimensional "
            f"weight of size {list(weight.shape)} instead")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if input.dtype != weight.dtype or input.device.type != weight.device.type:
        raise RuntimeError(f"Input type ({_type_name(input)}) and weight type ({_type_name(weight)}) should be the same")
    if bias is not None and (input.dtype != bias.dtype or input.device.type != bias.device.type):
        raise RuntimeError(f"Input type ({_type_name(input)}) and bias type ({_type_name(bias)}) should be the same")
    devices = {t.device for t in (input, weight, bias) if t is not None}
    if len(devices) > 1:
        a, b = sorted(str(d) for d in devices)[:2]
        raise RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, {a} and {b}!")
    if weight.shape[0] < 1:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least 1 at dimension 0, "
                           f"but got weight of size {list(weight.shape)} instead")
    if weight.shape[0] % groups != 0:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
                           f"but got weight of size [{list(weight.shape)}] instead")
    if input.shape[1] != weight.shape[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected input"
                           f"{list(input.shape)} to have {weight.shape[0]} channels, but got {input.shape[1]} "
                           f"channels instead")
    out_channels = weight.shape[1] * groups
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != out_channels):
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected bias to be "
                           f"1-dimensional with {out_channels} elements, but got bias of size "
                           f"{list(bias.shape)} instead")
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        names = _SPATIAL_NAMES[dims]
        detail = " ".join([f"output_padding_{n}: {v}" for n, v in zip(names, output_padding)] +
                          [f"stride_{n}: {v}" for n, v in zip(names, stride)] +
                          [f"dilation_{n}: {v}" for n, v in zip(names, dilation)])
        raise RuntimeError(f"output padding must be smaller than either stride or dilation, but got {detail}")
    spatial_in = list(input.shape[2:])
    if input.shape[0] != 0 and input.shape[1] != 0 and any(s == 0 for s in spatial_in):
        raise RuntimeError(f"Only zero batch or zero channel inputs are supported, but got input shape: "
                           f"{list(input.shape)}")
    kernel = list(weight.shape[2:])
    spatial_out = output_size(spatial_in, kernel, stride, padding, output_padding, dilation)
    # torch lets an empty batch produce an empty (size-0) output, never a negative one.
    if any(o < 0 or (o == 0 and input.shape[0] != 0) for o in spatial_out):
        raise RuntimeError(
            f"Given input size per channel: ({' x '.join(str(s) for s in spatial_in)}). Calculated output "
            f"size per channel: ({' x '.join(str(s) for s in spatial_out)}). Output size is too small")
    return stride, padding, output_padding, dilation


def output_shape(input_shape, weight_shape, stride, padding, output_padding, dilation, groups) -> List[int]:
    spatial = output_size(list(input_shape[2:]), list(weight_shape[2:]), stride, padding, output_padding, dilation)
    return [input_shape[0], weight_shape[1] * groups] + spatial


def memory_format_of(t: torch.Tensor) -> torch.memory_format:
    """The memory format tconv gives results derived from `t`: contiguous where `t` is; channels_last(_3d) where `t`
    is densely channels-last, or not dense but ordered as channels-last (_ordered_channels_last: a strided view of a
    channels-last tensor, such as the view of grad_output that the one-residue backward reads, tconv/_phase_view.py);
    contiguous otherwise. conv_transpose.cpp's result_format is the same rule (csrc/memory_format.h)."""
    dims = t.dim()
    if (dims != 4 and dims != 5) or t.is_contiguous():
        return torch.contiguous_format
    channels_last = torch.channels_last if dims == 4 else torch.channels_last_3d
    if t.is_contiguous(memory_format=channels_last) or _ordered_channels_last(t.shape, t.stride()):
        return channels_last
    return torch.contiguous_format


def _ordered_channels_last(sizes, strides) -> bool:
    """Whether a 4-D / 5-D tensor's elements lie at strictly increasing addresses in channels-last order (batch,
    spatial dimensions, channels innermost): each dimension's stride exceeds the farthest offset that the dimensions
    inside it reach (dimensions of extent 1 move nothing and are skipped). Ambiguous tensors count as not
    channels-last: an empty one, one channel, or every spatial extent 1. Why not PyTorch's suggest_memory_format: it
    asks each stride for the span stride x extent of the one inside it, which a view's last step need not cover;
    session 120's rule (PyTorch's) gave a contiguous grad_input for a channels-last 2D call through the one-residue
    view whose H view overran its extent by one step (run 581's test). Every tensor PyTorch calls channels-last and
    that is not ambiguous here is channels-last here too."""
    if any(int(n) == 0 for n in sizes) or int(sizes[1]) == 1 or all(int(n) == 1 for n in sizes[2:]):
        return False
    reach = 0  # the farthest offset of the dimensions inside
    for d in (1,) + tuple(range(len(sizes) - 1, 1, -1)) + (0,):
        if int(sizes[d]) == 1:
            continue
        if strides[d] <= reach:
            return False
        reach += strides[d] * (int(sizes[d]) - 1)
    return True


def output_padding_for_size(input: torch.Tensor, requested, stride, padding, kernel_size, dilation,
                            dims: int, module_name: str) -> Tuple[int, ...]:
    """The output_padding that makes the output `requested` in size (nn.ConvTranspose*d's
    forward(output_size=...)), with torch's ValueError messages."""
    requested = list(requested)
    if len(requested) == dims + 2:
        requested = requested[2:]
    if len(requested) != dims:
        raise ValueError(f"ConvTranspose{dims}D: for {input.dim()}D input, output_size must have {dims} "
                         f"or {dims + 2} elements (got {len(requested)})")
    spatial_in = input.shape[-dims:]
    min_sizes = [(spatial_in[i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (kernel_size[i] - 1) + 1
                 for i in range(dims)]
    max_sizes = [min_sizes[i] + stride[i] - 1 for i in range(dims)]
    for i in range(dims):
        if not (min_sizes[i] <= requested[i] <= max_sizes[i]):
            raise ValueError(f"requested an output size of {requested}, but valid sizes range from {min_sizes} "
                             f"to {max_sizes} (for an input of {list(spatial_in)})")
    return tuple(requested[i] - min_sizes[i] for i in range(dims))
