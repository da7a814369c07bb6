"""Pure-torch reference of the math tconv's fused activation -> GroupNorm kernels implement
(tconv/csrc/group_norm_act.cu), step by step, so the CPU tests can prove it equals torch's autograd
of activation + F.group_norm, and the GPU tests can point at the step where a kernel differs.

Forward: per (n, channel, piece) Welford statistics of act(y), merged per (n, group) with Chan's
formula in a fixed order; z = (act(y) - mean) * rstd * gamma + beta, rstd = 1 / sqrt(biased var + eps).

Backward (xhat = (act(y) - mean) * rstd, M = elements per group):
    grad_beta[c]  = sum_{n, s} dz
    grad_gamma[c] = sum_{n, s} dz * xhat
    grad_y = act'(y) * rstd * (gamma * dz - mean_g(gamma * dz) - xhat * mean_g(gamma * dz * xhat))
computed from per-(n, c) sums of dz and dz * (act(y) - mean), as the kernels do.
"""
import math
from typing import Dict, Optional, Tuple

import torch

_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_TWO_PI = 1.0 / math.sqrt(2.0 * math.pi)
_GELU_TANH_BETA = math.sqrt(2.0 / math.pi)
_GELU_TANH_KAPPA = 0.044715


def activation_value(kind: str, x: torch.Tensor, args: Dict) -> torch.Tensor:
    """act(x) with the kernels' formulas (PyTorch's)."""
    if kind == "identity":
        return x
    if kind == "relu":
        return torch.where(x < 0, torch.zeros_like(x), x)
    if kind == "leaky_relu":
        return torch.where(x > 0, x, x * args["negative_slope"])
    if kind == "gelu" and args.get("approximate", "none") == "tanh":
        inner = _GELU_TANH_BETA * (x + _GELU_TANH_KAPPA * x * x * x)
        return 0.5 * x * (1 + torch.tanh(inner))
    if kind == "gelu":
        return 0.5 * x * (1 + torch.erf(x * _SQRT_HALF))
    if kind == "silu":
        return x / (1 + torch.exp(-x))
    if kind == "hardswish":
        return x * torch.clamp(x + 3, 0, 6) / 6
    if kind == "tanh":
        return torch.tanh(x)
    if kind == "sigmoid":
        return torch.sigmoid(x)
    if kind == "hardtanh":
        return torch.clamp(x, args["min_val"], args["max_val"])
    raise ValueError(f"unknown activation {kind!r}")


def activation_slope(kind: str, x: torch.Tensor, args: Dict) -> torch.Tensor:
    """act'(x) with the conventions of PyTorch's autograd at the kinks."""
    one, zero = torch.ones_like(x), torch.zeros_like(x)
    if kind == "identity":
        return one
    if kind == "relu":  # threshold_backward: 0 at x == 0
        return torch.where(x > 0, one, zero)
    if kind == "leaky_relu":  # negative branch at x == 0
        return torch.where(x > 0, one, one * args["negative_slope"])
    if kind == "gelu" and args.get("approximate", "none") == "tanh":
        t = torch.tanh(_GELU_TANH_BETA * (x + _GELU_TANH_KAPPA * x * x * x))
        inner_slope = _GELU_TANH_BETA * (1 + 3 * _GELU_TANH_KAPPA * x * x)
        return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * inner_slope
    if kind == "gelu":
        return 0.5 * (1 + torch.erf(x * _SQRT_HALF)) + x * _INV_SQRT_TWO_PI * torch.exp(-0.5 * x * x)
    if kind == "silu":
        s = torch.sigmoid(x)
        return s * (1 + x * (1 - s))
    if kind == "hardswish":  # 0 for x <= -3, x/3 + 1/2 inside, 1 for x >= 3
        return torch.where(x <= -3, zero, torch.where(x < 3, x / 3 + 0.5, one))
    if kind == "tanh":
        t = torch.tanh(x)
        return 1 - t * t
    if kind == "sigmoid":
        s = torch.sigmoid(x)
        return s * (1 - s)
    if kind == "hardtanh":  # zero at and beyond the boundaries
        return torch.where((x <= args["min_val"]) | (x >= args["max_val"]), zero, one)
    raise ValueError(f"unknown activation {kind!r}")


def _chan_merge(a: Tuple[torch.Tensor, ...], b: Tuple[torch.Tensor, ...]) -> Tuple[torch.Tensor, ...]:
    """Chan et al.'s merge of (count, mean, M2) statistics (elementwise over tensors)."""
    count_a, mean_a, m2_a = a
    count_b, mean_b, m2_b = b
    count = count_a + count_b
    share_b = torch.where(count > 0, count_b / count.clamp_min(1), torch.zeros_like(count))
    delta = mean_b - mean_a
    return count, mean_a + delta * share_b, m2_a + m2_b + delta * delta * count_a * share_b


def group_statistics(x: torch.Tensor, groups: int, eps: float, splits: int = 3) -> Tuple[torch.Tensor, torch.Tensor]:
    """mean, rstd [N, G] of x [N, C, *spatial]: Welford statistics of each (n, c, piece) of the
    spatial axis, merged over the group's channels and pieces in index order."""
    n, c = x.shape[:2]
    flat = x.reshape(n, c, -1)
    pieces = torch.tensor_split(flat, max(1, min(splits, flat.shape[2])), dim=2)
    state = None
    for piece in pieces:
        # Channels of a group are merged one after another, as the finalize kernel walks them.
        count = torch.full((n, c), float(piece.shape[2]), dtype=x.dtype, device=x.device)
        mean = piece.mean(dim=2)
        m2 = ((piece - mean.unsqueeze(2)) ** 2).sum(dim=2)
        part = tuple(t.reshape(n, groups, c // groups) for t in (count, mean, m2))
        state = part if state is None else _chan_merge(state, part)
    total = tuple(t[..., 0] for t in state)
    for k in range(1, c // groups):
        total = _chan_merge(total, tuple(t[..., k] for t in state))
    count, mean, m2 = total
    variance = (m2 / count).clamp_min(0)
    return mean, torch.rsqrt(variance + eps)


def _per_channel(t: torch.Tensor, groups: int, channels: int, dims: int) -> torch.Tensor:
    """[N, G] -> [N, C, 1, ...] (each group's value repeated over its channels)."""
    return t.repeat_interleave(channels // groups, dim=1).reshape(t.shape[0], channels, *([1] * dims))


def _channel_view(param: Optional[torch.Tensor], like: torch.Tensor, fill: float) -> torch.Tensor:
    dims = like.dim() - 2
    if param is None:
        return torch.full((1, like.shape[1]) + (1,) * dims, fill, dtype=like.dtype, device=like.device)
    return param.reshape(1, -1, *([1] * dims)).to(like.dtype)


def group_norm_act_forward(y: torch.Tensor, groups: int, weight: Optional[torch.Tensor], bias: Optional[torch.Tensor],
                           eps: float, kind: str, args: Dict) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """z, mean [N, G], rstd [N, G] exactly as the kernels compute them (in y's dtype)."""
    x = activation_value(kind, y, args)
    mean, rstd = group_statistics(x, groups, eps)
    dims, channels = y.dim() - 2, y.shape[1]
    scale = _per_channel(rstd, groups, channels, dims) * _channel_view(weight, y, 1.0)
    z = (x - _per_channel(mean, groups, channels, dims)) * scale + _channel_view(bias, y, 0.0)
    return z, mean, rstd


def group_norm_act_backward(grad_z: torch.Tensor, y: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor,
                            groups: int, weight: Optional[torch.Tensor], kind: str, args: Dict
                            ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """grad_y, grad_gamma [C], grad_beta [C] by the kernels' three steps."""
    n, channels = y.shape[:2]
    dims = y.dim() - 2
    per_group = channels // groups
    elements = per_group * (y.numel() // max(1, n * channels))
    x = activation_value(kind, y, args)
    mean_c = _per_channel(mean, groups, channels, dims)
    rstd_c = _per_channel(rstd, groups, channels, dims)
    spatial = tuple(range(2, y.dim()))
    # Step 1: per-(n, c) sums.
    sum_dz = grad_z.sum(dim=spatial)
    sum_dz_xhat = (grad_z * (x - mean_c)).sum(dim=spatial) * rstd.repeat_interleave(per_group, dim=1)
    # Step 2: per-(n, g) coefficients and per-c parameter gradients.
    gamma = weight.to(y.dtype) if weight is not None else torch.ones(channels, dtype=y.dtype, device=y.device)
    mean_gamma_dz = (sum_dz * gamma).reshape(n, groups, per_group).sum(dim=2) / elements
    mean_gamma_dz_xhat = (sum_dz_xhat * gamma).reshape(n, groups, per_group).sum(dim=2) / elements
    offset = _per_channel(rstd * mean_gamma_dz, groups, channels, dims)
    centered_scale = _per_channel(rstd * rstd * mean_gamma_dz_xhat, groups, channels, dims)
    # Step 3: elementwise.
    scale = rstd_c * gamma.reshape(1, -1, *([1] * dims))
    grad_y = activation_slope(kind, y, args) * (scale * grad_z - offset - (x - mean_c) * centered_scale)
    return grad_y, sum_dz_xhat.sum(dim=0), sum_dz.sum(dim=0)
