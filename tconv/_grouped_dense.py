"""A grouped transposed convolution as the dense one on its block-diagonal weight.

A grouped call (groups G, weight (C_in, C_out / G, k...)) equals the dense call (groups 1) whose weight
(C_in, C_out, k...) holds each group's block on the diagonal and zeros between groups: the same output, the same
grad_input, and the grouped grad_weight is the dense grad_weight's diagonal blocks. The dense call does G times the
multiply-adds, on the kernels built for many channels; grouped calls of few channels a group are far from their FLOP
floor (L1-73: 3.6 GFLOP, ~0.6 GB a pass), so the extra products can cost less than the grouped kernels' own limits.

`dense_grad_input_candidate` is the shape half of the rule under which tconv/_ops.py runs a grouped grad_input dense
under algorithm "auto" (TCONV_GROUPED_DENSE_GRAD_INPUT=0, read at import, keeps every grouped call grouped; a forced
algorithm keeps it too): a 16-bit channels-last grouped call of at most 16 channels a group on either side. The other
half is in _ops: the dense call's grad_input must run on a persistent TMA or unit-stride grid (the C++ layer's
grad_input_persistent), the kernels on which G times the products cost less than the grouped kernels' own limits
(measured on the TMA grid; a grouped call at stride 1 whose dense call takes the unit-stride grid is unmeasured).
Measured (H200, bf16 channels-last, grad_input ms grouped / dense, dense kernel): run 517 L1-73 1.134 / 0.607 (TMA
persistent), L1-72 0.349 / 0.245 (TMA persistent), fam09 0.554 / 1.494 (the mma.sync gather: not persistent, so the
rule keeps it grouped); run 520, fwd+bwd ms switch 0 / 1: L1-73 4.154 / 3.592, L1-72 1.082 / 1.011, fam09 1.844 /
2.708 (before the persistence half). In TF32 the dense form lost everywhere (run 519: L1-73 1.871 / 4.743), hence
16-bit only; contiguous was mixed (run 517: L1-73 0.905 / 0.757, L1-72 0.346 / 0.364, fam09 0.498 / 0.529), hence
channels-last only.
"""
import os
from typing import Optional, Sequence

import torch

DENSE_GRAD_INPUT = os.environ.get("TCONV_GROUPED_DENSE_GRAD_INPUT", "1") != "0"
# Channels a group on either side at most: the grouped tensor-core kernels' widest block (16 x 16), above which the
# grouped calls run the many-channel kernels already
DENSE_MAX_GROUP_CHANNELS = 16


def block_diagonal_weight(weight: torch.Tensor, groups: int) -> torch.Tensor:
    """The grouped weight (C_in, C_out / groups, k...) as the dense call's (C_in, C_out, k...), zero between groups;
    contiguous, on weight's device and dtype."""
    c_in, c_out_g = int(weight.shape[0]), int(weight.shape[1])
    if groups < 1 or c_in % groups != 0:
        raise ValueError(f"{c_in} input channels do not split into {groups} groups")
    c_in_g, kernel = c_in // groups, tuple(weight.shape[2:])
    dense = weight.new_zeros((groups, c_in_g, groups, c_out_g) + kernel)
    # diagonal(dim1=0, dim2=2)[a, b, k..., g] is dense[g, a, g, b, k...]: group g's block
    dense.diagonal(dim1=0, dim2=2).copy_(weight.reshape((groups, c_in_g, c_out_g) + kernel).movedim(0, -1))
    return dense.reshape((c_in, groups * c_out_g) + kernel)


def diagonal_blocks(dense_grad_weight: torch.Tensor, groups: int) -> torch.Tensor:
    """The grouped grad_weight (C_in, C_out / groups, k...) from the dense call's (C_in, C_out, k...)."""
    c_in, c_out = int(dense_grad_weight.shape[0]), int(dense_grad_weight.shape[1])
    if c_in % groups != 0 or c_out % groups != 0:
        raise ValueError(f"({c_in}, {c_out}) channels do not split into {groups} groups")
    c_in_g, c_out_g, kernel = c_in // groups, c_out // groups, tuple(dense_grad_weight.shape[2:])
    blocks = dense_grad_weight.reshape((groups, c_in_g, groups, c_out_g) + kernel).diagonal(dim1=0, dim2=2)
    return blocks.movedim(-1, 0).reshape((c_in, c_out_g) + kernel)


def dense_weight_shape(weight_shape: Sequence[int], groups: int) -> tuple:
    """The block-diagonal weight's shape (C_in, C_out, k...) for a grouped weight (C_in, C_out / groups, k...)."""
    return (int(weight_shape[0]), groups * int(weight_shape[1])) + tuple(int(k) for k in weight_shape[2:])


def dense_grad_input_candidate(dtype: torch.dtype, weight_shape: Sequence[int], groups: int, channels_last: bool,
                               enabled: Optional[bool] = None) -> bool:
    """Whether a grouped call with this weight may run its grad_input dense (the shape half of the rule above;
    `enabled` None: as the switch says)."""
    if not (DENSE_GRAD_INPUT if enabled is None else enabled) or not channels_last or groups <= 1:
        return False
    if dtype not in (torch.float16, torch.bfloat16):
        return False
    c_in_g, c_out_g = int(weight_shape[0]) // groups, int(weight_shape[1])
    return c_in_g <= DENSE_MAX_GROUP_CHANNELS and c_out_g <= DENSE_MAX_GROUP_CHANNELS
