"""ConvTranspose -> activation -> GroupNorm as one module (the building block of U-Net/VAE/GAN
decoders and of KernelBench L2-61).

`ConvTransposeActGroupNorm2d/3d` is a tconv.ConvTranspose2d/3d (it owns the conv's weight and bias
under the conv's own names) that also applies an activation and a GroupNorm whose parameters stay
in the original nn.GroupNorm module: `tconv.optimize` leaves that module where it was (its forward
turned into a pass-through), so the model's state_dict keys do not change and state_dicts load both
ways.

Today the epilogue runs as PyTorch's activation and group_norm after tconv's conv kernel; the fused
CUDA epilogue (statistics accumulated in the conv's store, one normalisation pass, fused backward)
is the open part of the fusion issue and will replace `_epilogue` without changing this API.
"""
from typing import Callable, Dict, Optional, Tuple

import torch
import torch.nn.functional as F
from torch import nn

from .modules import ConvTranspose2d, ConvTranspose3d


def _activation_spec(module: nn.Module) -> Optional[Tuple[str, Dict[str, float]]]:
    """(kind, arguments) of a supported activation module, or None."""
    if type(module) is nn.ReLU:
        return "relu", {}
    if type(module) is nn.LeakyReLU:
        return "leaky_relu", {"negative_slope": module.negative_slope}
    if type(module) is nn.GELU:
        return "gelu", {"approximate": getattr(module, "approximate", "none")}
    if type(module) is nn.SiLU:
        return "silu", {}
    if type(module) is nn.Hardswish:
        return "hardswish", {}
    if type(module) is nn.Tanh:
        return "tanh", {}
    if type(module) is nn.Sigmoid:
        return "sigmoid", {}
    if type(module) in (nn.Hardtanh, nn.ReLU6):
        return "hardtanh", {"min_val": module.min_val, "max_val": module.max_val}
    if type(module) is nn.Identity:
        return "identity", {}
    return None


_ACTIVATIONS: Dict[str, Callable] = {
    "relu": lambda x: F.relu(x),
    "leaky_relu": lambda x, negative_slope: F.leaky_relu(x, negative_slope),
    "gelu": lambda x, approximate: F.gelu(x, approximate=approximate) if approximate != "none" else F.gelu(x),
    "silu": lambda x: F.silu(x),
    "hardswish": lambda x: F.hardswish(x),
    "tanh": torch.tanh,
    "sigmoid": torch.sigmoid,
    "hardtanh": lambda x, min_val, max_val: F.hardtanh(x, min_val, max_val),
    "identity": lambda x: x,
}


def fusion_refusal(conv: nn.Module, activation: nn.Module, norm: nn.Module) -> Optional[str]:
    """Why (conv, activation, norm) cannot be fused, or None when it can (xformers-style)."""
    if not isinstance(conv, (nn.ConvTranspose2d, nn.ConvTranspose3d)):
        return f"{type(conv).__name__} is not a 2D/3D ConvTranspose"
    if type(conv) not in (nn.ConvTranspose2d, nn.ConvTranspose3d, ConvTranspose2d, ConvTranspose3d):
        return f"{type(conv).__name__} subclasses ConvTranspose (its own forward is kept)"
    if conv.padding_mode != "zeros":
        return f"padding_mode={conv.padding_mode!r}"
    if _activation_spec(activation) is None:
        return f"activation {type(activation).__name__} is not one of the fusable activations"
    if type(norm) is not nn.GroupNorm:
        return f"{type(norm).__name__} is not nn.GroupNorm"
    if norm.num_channels != conv.out_channels:
        return f"GroupNorm has {norm.num_channels} channels, the conv produces {conv.out_channels}"
    return None


class GroupNormAppliedUpstream(nn.GroupNorm):
    """The original nn.GroupNorm after fusion: it keeps its parameters (and their names in the
    state_dict) but passes its input through, because the fused module before it applied it."""

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        return input

    @classmethod
    def from_group_norm(cls, norm: nn.GroupNorm) -> "GroupNormAppliedUpstream":
        new = cls.__new__(cls)
        new.__dict__.update(norm.__dict__)
        return new


class _ConvTransposeActGroupNormMixin:
    activation_kind = "identity"
    activation_args: Dict[str, float] = {}

    def _bind(self, activation: nn.Module, norm: nn.GroupNorm) -> None:
        kind, args = _activation_spec(activation)
        self.activation_kind, self.activation_args = kind, dict(args)
        self.bind_group_norm(norm)

    def bind_group_norm(self, norm: nn.GroupNorm) -> None:
        """Not registered as a submodule: its parameters belong to the module that stays in the
        model's tree (and in its state_dict)."""
        object.__setattr__(self, "_norm", norm)

    def _epilogue(self, y: torch.Tensor) -> torch.Tensor:
        y = _ACTIVATIONS[self.activation_kind](y, **self.activation_args)
        norm = self._norm
        return F.group_norm(y, norm.num_groups, norm.weight, norm.bias, norm.eps)

    def forward(self, input: torch.Tensor, output_size=None) -> torch.Tensor:
        return self._epilogue(super().forward(input, output_size))

    def extra_repr(self) -> str:
        norm = self._norm
        return (f"{super().extra_repr()}, activation={self.activation_kind}{self.activation_args or ''}, "
                f"group_norm=(groups={norm.num_groups}, eps={norm.eps}, affine={norm.affine})")

    @classmethod
    def fuse(cls, conv: nn.Module, activation: nn.Module, norm: nn.GroupNorm):
        """The fused module for (conv, activation, norm); shares every parameter."""
        reason = fusion_refusal(conv, activation, norm)
        if reason is not None:
            raise ValueError(f"{cls.__name__}: cannot fuse: {reason}")
        if conv.weight.dim() - 2 != cls._dims:
            raise ValueError(f"{cls.__name__} fuses {cls._dims}D convolutions, got a {conv.weight.dim() - 2}D one")
        new = cls.__new__(cls)
        new.__dict__.update(conv.__dict__)
        new._bind(activation, norm)
        return new


class ConvTransposeActGroupNorm2d(_ConvTransposeActGroupNormMixin, ConvTranspose2d):
    """ConvTranspose2d -> activation -> GroupNorm (see the module docstring)."""


class ConvTransposeActGroupNorm3d(_ConvTransposeActGroupNormMixin, ConvTranspose3d):
    """ConvTranspose3d -> activation -> GroupNorm (see the module docstring)."""


def fused_class_for(conv: nn.Module):
    return ConvTransposeActGroupNorm3d if conv.weight.dim() == 5 else ConvTransposeActGroupNorm2d
