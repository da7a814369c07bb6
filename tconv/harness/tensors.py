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
