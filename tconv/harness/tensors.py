"""Small helpers for model inputs and outputs shared by verify and bench."""

from __future__ import annotations

from typing import Any, Callable, List, Sequence

import torch


def is_float_tensor(value: Any) -> bool:
    return isinstance(value, torch.Tensor) and value.is_floating_point()


def tensor_list(output: Any) -> List[torch.Tensor]:
    """A model's output as a list of tensors (KernelBench models return one tensor)."""
    if isinstance(output, torch.Tensor):
        return [output]
    if isinstance(output, (tuple, list)) and all(isinstance(item, torch.Tensor) for item in output):
        return list(output)
    raise TypeError(f"model output must be a tensor or a tuple/list of tensors, got {type(output).__name__}")


def to_device(values: Sequence[Any], device: torch.device, float_dtype: torch.dtype) -> List[Any]:
    """Float tensors to (device, float_dtype), other tensors to device, anything else as is."""
    moved = []
    for value in values:
        if is_float_tensor(value):
            moved.append(value.to(device=device, dtype=float_dtype))
        elif isinstance(value, torch.Tensor):
            moved.append(value.to(device=device))
        else:
            moved.append(value)
    return moved


def map_floats(values: Sequence[Any], transform: Callable[[torch.Tensor], torch.Tensor]) -> List[Any]:
    return [transform(value) if is_float_tensor(value) else value for value in values]


# How verify and bench lay out a problem's inputs: "contiguous" as get_inputs() gives them; "channels_last" with every
# 4-D tensor in torch.channels_last and every 5-D one in torch.channels_last_3d (the same values; 3-D tensors, which
# have no channels-last format, as they are). The 16-bit targets name both layouts.
LAYOUTS = ("contiguous", "channels_last")


def to_layout(values: Sequence[Any], layout: str) -> List[Any]:
    """`values` laid out as `layout` says (LAYOUTS)."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
    if layout == "contiguous":
        return list(values)
    formats = {4: torch.channels_last, 5: torch.channels_last_3d}
    return [value.contiguous(memory_format=formats[value.dim()])
            if isinstance(value, torch.Tensor) and value.dim() in formats else value for value in values]


def layout_applies(values: Sequence[Any], layout: str) -> bool:
    """Whether `layout` changes any of `values` (channels_last: some 4-D or 5-D tensor)."""
    return layout != "contiguous" and any(isinstance(value, torch.Tensor) and value.dim() in (4, 5)
                                          for value in values)


def strided_like(values: Sequence[torch.Tensor], like: Sequence[torch.Tensor]) -> List[torch.Tensor]:
    """Each of `values` with the strides of its counterpart in `like` (a grad_output laid out as its output is, as
    the op after it would hand it back), the same values."""
    return [value if value.stride() == other.stride() else torch.empty_like(other, dtype=value.dtype).copy_(value)
            for value, other in zip(values, like)]


def copies(values: Sequence[Any]) -> List[Any]:
    return [value.clone() if isinstance(value, torch.Tensor) else value for value in values]


def make_leaves(values: Sequence[Any]) -> List[Any]:
    """Fresh leaf copies of the float tensors, requiring grad, so every model run gets its own."""
    return map_floats(values, lambda tensor: tensor.detach().clone().requires_grad_(True))


def backward_all(outputs: Sequence[torch.Tensor], grad_outputs: Sequence[torch.Tensor]) -> None:
    """Backward from every output that requires grad, with its grad_output."""
    pairs = [(out, grad) for out, grad in zip(outputs, grad_outputs) if out.requires_grad]
    if pairs:
        torch.autograd.backward([out for out, _ in pairs], [grad for _, grad in pairs])
