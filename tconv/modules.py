"""Drop-in modules: subclasses of nn.ConvTranspose{1,2,3}d whose forward runs tconv.

Construction, parameters, initialisation and state_dict are the parent's own (nothing is added or
re-initialised), so a seeded construction gives the same weights as torch's module and state_dicts
load both ways.
"""
from typing import List, Optional

import torch
from torch import nn

from . import _args, functional

__all__ = ["ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"]


class _ConvTransposeMixin:
    _dims = 0
    _functional = None

    def forward(self, input: torch.Tensor, output_size: Optional[List[int]] = None) -> torch.Tensor:
        if self.padding_mode != "zeros":
            raise ValueError(f"Only \"zeros\" padding mode is supported for {type(self).__name__}")
        output_padding = self.output_padding
        if output_size is not None:
            output_padding = _args.output_padding_for_size(input, output_size, self.stride, self.padding,
                                                           self.kernel_size, self.dilation, self._dims,
                                                           type(self).__name__)
        return type(self)._functional(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                      self.groups, self.dilation)

    @classmethod
    def from_torch(cls, module: nn.Module):
        """A tconv module sharing `module`'s parameters, buffers and hooks (no copies)."""
        expected = cls.__mro__[2]
        if type(module) is not expected:
            raise TypeError(f"{cls.__name__}.from_torch expects an {expected.__name__}, got {type(module).__name__}")
        new = cls.__new__(cls)
        new.__dict__.update(module.__dict__)
        return new


class ConvTranspose1d(_ConvTransposeMixin, nn.ConvTranspose1d):
    """tconv's nn.ConvTranspose1d (same constructor and parameters)."""
    _dims = 1
    _functional = staticmethod(functional.conv_transpose1d)


class ConvTranspose2d(_ConvTransposeMixin, nn.ConvTranspose2d):
    """tconv's nn.ConvTranspose2d (same constructor and parameters)."""
    _dims = 2
    _functional = staticmethod(functional.conv_transpose2d)


class ConvTranspose3d(_ConvTransposeMixin, nn.ConvTranspose3d):
    """tconv's nn.ConvTranspose3d (same constructor and parameters)."""
    _dims = 3
    _functional = staticmethod(functional.conv_transpose3d)
