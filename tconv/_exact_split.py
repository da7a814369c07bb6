"""Exact fp32 (TF32 off) as one TF32 GEMM over three times the K: each fp32 operand a = a_big + a_small, a_big
rounded to TF32 (10 explicit mantissa bits) and a_small the exact remainder, and the three products
big*big + small*big + big*small summed by the TF32 kernels themselves over a K made of three copies of the operands
(the 3xTF32 scheme; small*small, 2^-22 of the product, is dropped).

Where the copies go, per pass (the GEMM's K axis):
  forward      x tripled along its channels within each group, [big, small, big], the weight along dim 0,
               [big, big, small];
  grad_input   grad_output along its channels within each group, [big, small, big], the weight along dim 1;
  grad_weight  x and grad_output along the batch, [big, small, big] and [big, big, small].

Why: tconv's exact kernels run 3xTF32 on mma.sync and sum each stage's products in fresh registers (mma_sm80.h),
several times slower than the TF32 wgmma kernels; this form runs the TF32 kernels (3x their FLOPs) plus one
elementwise pass over each operand, at the cost of operand copies three times their size. Whether the wgmma
accumulators keep the exact contract over the whole K is measured (scripts/exact_split_probe.py), not assumed.

Measured (run 550, H100, quick timing against the exact kernels): L2-61's exact forward 5.313 -> 2.922 ms (fwd+bwd
15.52 -> 12.15), fam06's 8.994 -> 4.863 (28.65 -> 20.78). But not exact: 11 of the GPU grid's 37 cases and three
long-K cases missed the elementwise allclose(1e-4) that the exact kernels meet, by up to 1.6e-3 absolute. The TF32
kernels sum the whole K in the tensor cores' accumulators, which lose more per step than the fp32 adds of the exact
kernels' fresh per-stage sums (mma_sm80.h). So it stays off: TCONV_EXACT_SPLIT=1 (development, read at import) turns it
on for fp32 calls with TF32 off on GPUs of compute capability 9.0 and up. What would make it exact: the TF32 kernels
summing each stage's products in fresh accumulators and adding them in fp32, on these same tripled operands.
"""
import math
import os
import threading

import torch

from . import _args

EXACT_SPLIT = os.environ.get("TCONV_EXACT_SPLIT", "0") == "1"
# bit j set: copy j is the small part
SMALL_SECOND = 0b010
SMALL_THIRD = 0b100

_state = threading.local()


def inside() -> bool:
    """Whether the calling thread is running a split pass's TF32 GEMM (where TF32 is the point, not a choice)."""
    return getattr(_state, "depth", 0) > 0


class tf32_inside:
    """Marks the calling thread as inside a split pass for the block's duration (nested uses count)."""

    def __enter__(self):
        _state.depth = getattr(_state, "depth", 0) + 1

    def __exit__(self, *exc):
        _state.depth -= 1
        return False


def taken(t: torch.Tensor, tf32: bool) -> bool:
    """Whether an exact call on `t` (a pass's first operand) runs as the split TF32 GEMM."""
    return EXACT_SPLIT and not tf32 and not inside() and t.dtype == torch.float32 and t.is_cuda and \
        _wgmma_device(t.device.index if t.device.index is not None else torch.cuda.current_device())


_WGMMA_DEVICES = {}


def _wgmma_device(index: int) -> bool:
    """Whether CUDA device `index` is of compute capability 9.0 or newer (asked once per device: the query costs a
    few microseconds of host time a call)."""
    known = _WGMMA_DEVICES.get(index)
    if known is None:
        known = _WGMMA_DEVICES[index] = torch.cuda.get_device_capability(index)[0] >= 9
    return known


def split_reference(source: torch.Tensor, small_copies: int) -> torch.Tensor:
    """[rows, inner] fp32 -> [rows, 3, inner]: the kernel's result in plain torch (round to nearest, ties away from
    zero; non-finite values their own big part; a big part that would round past the largest float truncated)."""
    from .harness.compare import round_to_tf32

    big = round_to_tf32(source, saturate=True)
    finite = torch.isfinite(source)
    small = torch.where(finite, source - big, torch.zeros_like(source))
    return torch.stack([small if small_copies >> j & 1 else big for j in range(3)], dim=1)


def _split_into(source: torch.Tensor, out: torch.Tensor, rows: int, inner: int, small_copies: int) -> None:
    """source (dense) read in memory order as [rows, inner], out (dense) written as [rows, 3, inner]."""
    if source.is_cuda:
        from . import _build
        _build.load().tf32_split_out(source, out, rows, inner, small_copies)
        return
    flat_source = source.permute(*_memory_order(source)).reshape(rows, inner)
    flat_out = out.permute(*_memory_order(out))
    flat_out.copy_(split_reference(flat_source, small_copies).reshape(flat_out.shape))


def _memory_order(t: torch.Tensor):
    """t's dims from outermost to innermost in memory (for a dense tensor)."""
    return sorted(range(t.dim()), key=lambda d: (-t.stride(d), -t.shape[d]))


def channels(t: torch.Tensor, groups: int, small_copies: int) -> torch.Tensor:
    """[N, C, *spatial] -> [N, 3C, *spatial], each group's C/groups channels three times in a row (big or small as
    small_copies says), in t's memory format."""
    fmt = _args.memory_format_of(t)
    t = t.contiguous(memory_format=fmt)
    batch, chans = t.shape[0], t.shape[1]
    spatial = math.prod(t.shape[2:])
    out = torch.empty((batch, 3 * chans) + tuple(t.shape[2:]), dtype=t.dtype, device=t.device, memory_format=fmt)
    per_group = chans // groups
    if fmt == torch.contiguous_format:
        _split_into(t, out, batch * groups, per_group * spatial, small_copies)
    else:
        _split_into(t, out, batch * spatial * groups, per_group, small_copies)
    return out


def batch(t: torch.Tensor, small_copies: int) -> torch.Tensor:
    """[N, *rest] -> [3N, *rest], t three times along the batch, in t's memory format."""
    fmt = _args.memory_format_of(t)
    t = t.contiguous(memory_format=fmt)
    out = torch.empty((3 * t.shape[0],) + tuple(t.shape[1:]), dtype=t.dtype, device=t.device, memory_format=fmt)
    _split_into(t, out, 1, t.numel(), small_copies)
    return out


def weight(w: torch.Tensor, groups: int, dim: int, small_copies: int) -> torch.Tensor:
    """A transposed convolution's weight [C_in, C_out/groups, *kernel] tripled along dim 0 within each group (the
    forward's K) or along dim 1 (grad_input's K), contiguous."""
    w = w.contiguous()
    if dim == 0:
        rows, inner = groups, w.numel() // groups
        shape = (3 * w.shape[0],) + tuple(w.shape[1:])
    else:
        rows, inner = w.shape[0], w.numel() // w.shape[0]
        shape = (w.shape[0], 3 * w.shape[1]) + tuple(w.shape[2:])
    out = torch.empty(shape, dtype=w.dtype, device=w.device)
    _split_into(w, out, rows, inner, small_copies)
    return out


__all__ = ["EXACT_SPLIT", "SMALL_SECOND", "SMALL_THIRD", "inside", "tf32_inside", "taken", "split_reference",
           "channels", "batch", "weight"]
