"""Calls whose taps all land on one residue of the stride, re-described as a stride-1 call on strided views: the
forward as a fill and a stride-1 call into a view of the output, the backward on a view of grad_output (no data
copied).

The forward writes o = s*i - p + d*k. Where d is a multiple of s (or the kernel has one tap along that dimension),
every tap gives o = -p (mod s): only positions o = s*j + r with r = -p mod s receive taps, at j = i - q + (d/s)*k with
q = (p + r)/s. The other positions hold the bias (or zero). So the output is filled with the bias, and the stride-1
problem (padding q, dilation d/s, the same input, weights and groups) writes the view out[..., r::s] through the
kernels' output strides. Why: the GEMM paths tile every phase of the strided call, the untapped ones included.
fam10 (k3 s2 p1 d2, 16 x 32 x 32 -> 33 x 65 x 65) has 7 of its 8 phases untapped: 34,272 of its TMA gather's blocks
store zeros against 2,048 that run the GEMM (tma_gather_tile's 1 x 4 x 32 tiles over the largest phase grid), and
its TF32 channels_last forward took 1.012 ms under TCONV_TMA_UNEQUAL_PHASES=1 and 1.408 without (run 576, H100)
where writing its 571 MB output takes ~0.19 ms.

The backward takes the same view: grad_output's untapped positions reach neither gradient, so grad_input and
grad_weight are the stride-1 problem's, on the view out[..., r::s] of grad_output (a strided view, no copy: a copy
would cost up to half of grad_output's size in memory, 1/s of it for a 1D call); grad_bias still sums all of
grad_output. A channels-last grad_output's view is channels-last by its stride order, so grad_input comes out
channels-last as from the strided call (_args.memory_format_of: channels-last address order for tensors that are not
dense; before session 120 it gave such views contiguous results, and autograd then copies grad_input into x's layout:
the 0.037 ms copy in run 579's fam10 breakdown, gone from run 581's; session 120's PyTorch rule still missed views
whose last step overruns their extent, run 581's 2D test case). The taps' rows of contiguous data are strided, which
the grad_weight kernels read poorly: TCONV_BACKWARD_VIEW_GRAD_WEIGHT below.

Measured (H100, quick timings, TF32, fwd / fwd+bwd ms, switch 1 against 0). Run 577, the forward's: fam10
channels_last 0.403 / 1.237 against 1.397 / 2.219, contiguous 0.427 / 1.476 against 0.703 / 1.756. Run 578, the
backward's (the forward's on): fam10 channels_last 1.156 against 1.236 fwd+bwd, contiguous 1.384 against 1.472. But
fam12 (1D k3 s2 p1 d2: 2 phases, one untapped) lost both ways: forward 1.360 against 0.978, fwd+bwd 2.220 against
2.211 (the backward's alone). There the strided kernels waste little on the one untapped phase, and the view pays a
full fill plus stores at twice the W pitch. So the view is taken only where the strides give MIN_PHASES phases or
more (fam10: 8), see taken_plan().

TCONV_FORWARD_PHASE_VIEW (development, read once per process): "0" keeps "auto" calls on the strided path; unset or
anything else takes the view wherever taken_plan() gives a plan (the default since run 577, whose GPU test passed: the
contract in TF32, exact fp32 and bf16, contiguous and channels_last, poisoned outputs). TCONV_BACKWARD_PHASE_VIEW (the
same for plain eager backwards): "0" keeps the strided backward; unset or anything else takes the view (the default
since session 120: run 578 passed its contract in TF32, exact fp32 and bf16, both layouts, the native backward's
second calls included, and memcheck found 0 errors). Only the description changes: the math is plain Python (plan)
and torch ops (apply), so the CPU tests check it against PyTorch on every parameter corner.
"""
import os
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import torch

ENABLED = os.environ.get("TCONV_FORWARD_PHASE_VIEW", "1") != "0"
BACKWARD_ENABLED = os.environ.get("TCONV_BACKWARD_PHASE_VIEW", "1") != "0"
# (run 578: fam10's 8 phases paid, fam12's 2 lost; none of 4 measured yet)
MIN_PHASES = 4


def _stride1_extent(source: int, padding: int, dilation: int, kernel: int) -> int:
    """A stride-1 transposed convolution's output extent without output padding (make_params' `full`)."""
    return source - 1 - 2 * padding + dilation * (kernel - 1) + 1


@dataclass(frozen=True)
class PhaseViewPlan:
    stride: Tuple[int, int, int]    # the original strides: the view's steps
    residue: Tuple[int, int, int]   # r = -p mod s: the view's first position
    size: Tuple[int, int, int]      # the view's extents, ceil((out - r) / s)
    padding: Tuple[int, int, int]   # q = (p + r) / s
    dilation: Tuple[int, int, int]  # d / s (one tap: what admits the view's extent)


def plan(input_shape: Sequence[int], weight_shape: Sequence[int], out_shape: Sequence[int],
         stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int]) -> Optional[PhaseViewPlan]:
    """The view's description for 5-D shapes and 3-entry stride, padding and dilation, or None where some strided
    dimension's taps land on more than one residue, no dimension is strided, or a tensor is empty."""
    # (the one-residue test first: it refuses most strided calls, and plan() runs on every forward and backward)
    if all(s == 1 for s in stride) or any(s > 1 and weight_shape[2 + i] > 1 and dilation[i] % s
                                          for i, s in enumerate(stride)):
        return None
    if any(int(n) == 0 for n in list(input_shape) + list(out_shape)):
        return None
    dims = []  # (r, n, q, d / s) per dimension
    for i in range(3):
        s, p, d = int(stride[i]), int(padding[i]), int(dilation[i])
        kernel, extent, source = int(weight_shape[2 + i]), int(out_shape[2 + i]), int(input_shape[2 + i])
        if s == 1:
            dims.append((0, extent, p, d))
            continue
        r = -p % s
        q = (p + r) // s
        n = (extent - r + s - 1) // s
        # the stride-1 call's own output extent, and the kernels' bound on what may exceed it (make_params:
        # less than the dilation); one tap's dilation moves nothing, so it is set to admit the view's extent
        view_d = d // s if kernel > 1 else max(1, n - _stride1_extent(source, q, 1, 1) + 1)
        full = _stride1_extent(source, q, view_d, kernel)
        if n < 1 or n < full or n - full >= max(1, view_d):
            return None
        dims.append((r, n, q, view_d))
    residue, size, view_padding, view_dilation = (tuple(column) for column in zip(*dims))
    return PhaseViewPlan(tuple(int(s) for s in stride), residue, size, view_padding, view_dilation)


def taken_plan(input_shape: Sequence[int], weight_shape: Sequence[int], out_shape: Sequence[int],
               stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int]) -> Optional[PhaseViewPlan]:
    """plan() where the strides give MIN_PHASES phases or more (what the forward and the backward take), else None;
    the strides are tested first, so most calls skip plan()."""
    if stride[0] * stride[1] * stride[2] < MIN_PHASES:
        return None
    return plan(input_shape, weight_shape, out_shape, stride, padding, dilation)


def output_view(view_plan: PhaseViewPlan, out5: torch.Tensor) -> torch.Tensor:
    """The positions of out5 (5-D) that receive taps, as a strided view: out5[:, :, r0::s0, r1::s1, r2::s2] cut to
    the plan's extents, in one as_strided (a third of the host time of the two slicings on this CPU: 6 against 18 us;
    it runs on every forward and backward through the view)."""
    (r0, r1, r2), (s0, s1, s2) = view_plan.residue, view_plan.stride
    st = out5.stride()
    return out5.as_strided((out5.shape[0], out5.shape[1]) + tuple(view_plan.size),
                           (st[0], st[1], s0 * st[2], s1 * st[3], s2 * st[4]),
                           out5.storage_offset() + r0 * st[2] + r1 * st[3] + r2 * st[4])


def fill(out5: torch.Tensor, bias: Optional[torch.Tensor]) -> None:
    """Every position of out5 holds the bias (or zero); the stride-1 call then overwrites the tapped ones."""
    if bias is None:
        out5.zero_()
    else:
        out5.copy_(bias.view(1, -1, 1, 1, 1).expand_as(out5))


def untapped_views(view_plan: PhaseViewPlan, out5: torch.Tensor):
    """Strided views of out5 (5-D) that hold every position the taps miss, each once: along each strided dimension in
    turn, the positions of its other residues among those on the taps' residue in the dimensions before it (for
    stride 2 in three dimensions: a half, a quarter and an eighth of the output). The view the stride-1 call writes
    holds the rest (output_view: all positions on the taps' residue of every dimension)."""
    views = []
    index = [slice(None), slice(None)]
    for s, r in zip(view_plan.stride, view_plan.residue):
        for other in range(s):
            if other != r:
                views.append(out5[tuple(index + [slice(other, None, s)])])
        index.append(slice(r, None, s))
    return views


# TCONV_PHASE_VIEW_FILL (development, read once per process): how the forward's untapped positions get the bias.
# "full" (unset or any other value): one fill of the whole output before the stride-1 call (run 579, fam10 CL: 0.172
# ms of its 0.404). "untapped": only the positions the taps miss (untapped_views: 7/8 of fam10's output, in slabs),
# then the call. "overlap": the untapped fill on a side stream beside the call (they write disjoint positions), the
# caller's stream waiting for it (not while a CUDA graph captures: "untapped" then). Predicted fam10 CL forward:
# ~0.38 ms untapped, ~0.25-0.30 overlapped. Run 581 (H200, fam10 TF32 forward ms, full / untapped / overlap):
# channels_last 0.352 / 0.534 / 0.511, contiguous 0.354 / 0.658 / 0.639; their GPU test passed. The prediction missed
# because PyTorch fills strided slabs on its generic elementwise kernel (index math per element): fam10's three took
# 0.309 ms against 0.121 for one vectorized fill of the whole output. So "full" stays; a fill kernel of tconv's own
# over the slabs (or the stride-1 store writing the untapped neighbours) would be the way to the saving.
FILL_MODE = {"untapped": "untapped", "overlap": "overlap"}.get(os.environ.get("TCONV_PHASE_VIEW_FILL", ""), "full")


def output_padding(view_plan: PhaseViewPlan, input_shape: Sequence[int], weight_shape: Sequence[int]):
    """The stride-1 call's output padding (what its view exceeds its natural extent by), for calls that need one,
    such as PyTorch's reference in the CPU tests."""
    return tuple(n - _stride1_extent(int(input_shape[2 + i]), view_plan.padding[i], view_plan.dilation[i],
                                     int(weight_shape[2 + i]))
                 for i, n in enumerate(view_plan.size))


def grad_output_taps(view_plan: PhaseViewPlan, grad_output5: torch.Tensor, dims: int) -> torch.Tensor:
    """The positions of grad_output (5-D) that the taps read, as a strided view with `dims` spatial dimensions (the
    leading ones that the 5-D form added have extent 1)."""
    view = output_view(view_plan, grad_output5)
    for _ in range(3 - dims):
        view = view.squeeze(2)
    return view


# Where the taps' rows are strided (contiguous data: the view's innermost dimension has pitch s; rows_strided), no
# grad_weight kernel reads them as rows: fam10 contiguous took 0.62 ms on the view against 0.345 on the channels-last
# one, whose rows are channels (run 580, H100). TCONV_BACKWARD_VIEW_GRAD_WEIGHT (development, read once per process)
# says where grad_weight then runs: "view" (unset or any other value) the stride-1 call on the view; "strided" the
# strided call's grad_weight on the whole grad_output (grad_input keeps the view); "compact" the stride-1 call on
# compact copies of the taps, a batch range at a time, each within a tenth of grad_output (README "Device memory"; a
# copy of the whole view would hold 1/8 of fam10's), their sums added (in fp32 for 16-bit weights). Run 581 (H200,
# fam10 TF32 contiguous, kernels): the strided call's grad_weight 0.373 ms (in the breakdown with the backward view
# off), compact 0.558 (0.492 of GEMM in two ranges, 0.066 of copies), the view's ~0.62 (fwd+bwd 1.227 compact against
# 1.289 view; compact passed its GPU test on the fam10-like case). "strided" is predicted to bring fam10's contiguous
# fwd+bwd to ~1.05 ms; it stays off until its GPU test has run (the device budget was spent before it could).
GRAD_WEIGHT_MODE = {"compact": "compact", "strided": "strided"}.get(
    os.environ.get("TCONV_BACKWARD_VIEW_GRAD_WEIGHT", ""), "view")
COMPACT_SHARE = 10  # a copy holds at most 1/COMPACT_SHARE of grad_output (README "Device memory")


def rows_strided(taps: torch.Tensor) -> bool:
    """Whether neither the innermost dimension of `taps` (grad_output_taps' view) nor its channels have unit stride:
    no row of it is contiguous (contiguous data under a stride along W; channels-last data has channel rows)."""
    return taps.stride(-1) != 1 and taps.stride(1) != 1


def compact_batches(taps: torch.Tensor, grad_output_numel: int) -> Optional[List[Tuple[int, int]]]:
    """Batch ranges [lo, hi) of equal size (the last one shorter) whose compact copies of `taps` (grad_output_taps'
    view) each hold at most 1/COMPACT_SHARE of grad_output's elements; None where its rows are not strided
    (rows_strided), or one sample's view is over the share."""
    batch = taps.shape[0]
    if batch == 0 or not rows_strided(taps):
        return None
    per_sample = taps[0].numel()
    allowed = grad_output_numel // COMPACT_SHARE
    if per_sample == 0 or per_sample > allowed:
        return None
    parts = -(-batch // (allowed // per_sample))  # (the fewest ranges within the share, then balanced)
    size = -(-batch // parts)
    return [(lo, min(lo + size, batch)) for lo in range(0, batch, size)]


def stride1_arguments(view_plan: PhaseViewPlan, dims: int):
    """The stride-1 call's stride, padding and dilation for a call with `dims` spatial dimensions."""
    return [1] * dims, list(view_plan.padding[3 - dims:]), list(view_plan.dilation[3 - dims:])
