"""grad_input at W stride s > 1 re-described as a W-stride-1 problem (no data copied).

The input gradient gathers grad_output at o = i*s - p + k*d (i: input W position, k: W tap). Writing
e_k = k*d - p = s*q_k + r_k (0 <= r_k < s) turns that into o = s*(i + q_k) + r_k: grad_output viewed as
[.., residue r, .., j = o // s] (a strided view, since o = s*j + r) is read at j = i + q_k, W stride 1,
by residue r_k. The residue becomes a tap dimension of its own, put in the free D slot of a 1D/2D
problem (5-D view [N, C, D, H, W] with D of size 1): D' has r values as "output" positions, one
"input" position and a kernel of R taps. The weights move to [C_in, C_out/g, R, kH, Q] with zeros where
no k has that (r, q); that costs R*Q/K times the MMAs of the original (1.5x on HiFi-GAN's k16 s8 and
DCGAN's k4 s2), but the gather then reads W at stride 1, where the GEMM's W-tap window applies (one A
tile per residue and channel chunk, shared by the Q taps) instead of one strided A tile per tap.

Counting the residues from o = 0 leaves empty slots in the [R, Q] grid wherever the taps' offsets k*d - p
do not start on a multiple of s (HiFi-GAN: -4 ... 11 at s = 8 spans three shifts). Counted from the first
tap's offset -p instead ("edged" plans), the taps of K = Q*s fill the grid exactly (k = s*q + r), but then the
view's first and last positions lie outside grad_output: so only the interior input positions, whose every
read lies inside it, run on the view, and the few positions at each end run as separate small calls of the
original description on zero-padded copies of the grad_output columns they read. plan() takes the edged
form where it needs fewer MMAs than the other.

Only the description changes: the same kernels run on the view. The math is plain Python (plan) and
torch ops (calls, apply) so the CPU tests check it against PyTorch's grad_input on every parameter corner.
"""
import math
import os
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

import torch

from . import _args


# Mirrors of the GEMM path's limits (conv_transpose_igemm.cu kMaxKernelPerDim, igemm_config.h kMaxTaps;
# tests/test_phase_split_cpu.py checks they agree): a split past them would make "igemm" refuse a call
# the unsplit GEMM runs.
KERNEL_PER_DIM_LIMIT = 32
TAPS_LIMIT = 512
# "auto" (tconv/_ops.py) takes the split for fp32 1D calls (TF32 or exact) at W stride >= 4 whose zero taps
# cost at most 1.5x the MMAs. Run 34 (H200, scripts/phase_split_sweep.py, grad_input alone, split vs not on
# the same tensors): TF32 1D stride 4 1.15-1.27x, stride 5 1.67x, stride 8 1.67-1.82x (HiFi-GAN's grad_input
# 15.9 -> 8.7 ms); slower at stride 2 (0.86x) and 3 (0.80x, 1.8x the MMAs), on every 2D shape (0.52-0.69x:
# H keeps its stride, and the lines are short) and in bf16 (0.72-0.95x, 1.06x at stride 8). Exact fp32
# (3xTF32): runs 237-238 (H100, scripts/quick_timing.py, fwd+bwd, "auto" against "igemm_phase_split" in one
# process): HiFi-GAN (stride 8) 67.52 -> 48.03 ms, its grad_input ~27.7 -> ~8.2 (the unsplit 3xTF32 gather
# reads grad_output at stride 8); fam12 (stride 2) 3.02 -> 3.15, a loss as in TF32. Strides 4-5 were not
# timed in exact mode: the bound is TF32's, whose gains there were smaller than at 8.
AUTO_MIN_STRIDE = 4
AUTO_MAX_MMA_RATIO = 1.5
# Mirror of kGroupedPreferredMaxChannelProduct (conv_transpose.h; tests/test_phase_split_cpu.py checks
# they agree): at or below it "auto" runs the register-blocked grouped kernels, which the split would
# not help.
GROUPED_PREFERRED_MAX_CHANNEL_PRODUCT = 128


@dataclass(frozen=True)
class PhaseSplitPlan:
    stride: int         # s, the original W stride
    residue_first: int  # r0, the smallest residue any tap uses
    residue_step: int   # gcd(s, d): every tap's residue is r0 + residue_step * m
    residues: int       # R, the D' kernel: residues r0, r0 + step, ... (some may have no tap)
    taps: int           # Q, the W' kernel (q_min .. q_max, plus trailing zero taps, see plan())
    padding: int        # p' = -q_min
    out_w: int          # L', the view's W: W_out / s, or (edged) the interior's stop - first + Q - 1
    tap_slot: Tuple[int, ...]  # per original tap k: its flat slot m * Q + q' in the [R, Q] tap grid
    # Edged plans: offsets count from `base` = -p (0 otherwise), and only input positions [first, stop) run on
    # the view; the others run as edge calls (calls()).
    base: int = 0
    first: int = 0
    stop: Optional[int] = None

    @property
    def mma_ratio(self) -> float:
        """MMA work relative to the strided original (zero taps included)."""
        return self.residues * self.taps / len(self.tap_slot)


def auto_prefers(split: Optional[PhaseSplitPlan], grad_output_shape: Sequence[int], weight_shape: Sequence[int],
                 groups: int, dtype: torch.dtype) -> bool:
    """Whether "auto" runs this grad_input call split (see AUTO_MIN_STRIDE for the measurements), in either
    fp32 mode. Shapes are the 5-D ones plan() took."""
    if split is None or dtype != torch.float32:
        return False
    one_d = int(grad_output_shape[3]) == 1 and int(weight_shape[3]) == 1
    channel_product = int(weight_shape[0]) // groups * int(weight_shape[1])
    return (one_d and split.stride >= AUTO_MIN_STRIDE and split.mma_ratio <= AUTO_MAX_MMA_RATIO
            and channel_product > GROUPED_PREFERRED_MAX_CHANNEL_PRODUCT)


def _floor_div(a, b: int):
    return torch.div(a, b, rounding_mode="floor") if isinstance(a, torch.Tensor) else a // b


def tap_slots(k, kernel_d: int, stride: int, padding: int, residue_first: int, residue_step: int, taps: int,
              q_min: int, base: int = 0):
    """Slot m * Q + q' of tap k (an int or a tensor of taps): e = k*d - p - base = s*q + r, m = (r - r0) / step,
    q' = q - q_min. The one place this mapping is written (plan() and apply() both use it)."""
    e = k * kernel_d - padding - base
    q = _floor_div(e, stride)
    r = e - q * stride
    return _floor_div(r - residue_first, residue_step) * taps + (q - q_min)


def _edges_mode() -> str:
    """TCONV_PHASE_SPLIT_EDGES (development, read per call, for A/B timings): "0" keeps plan() to the centred form;
    "nowindow" takes the edged form without forcing the W-tap window (calls()); anything else is the default."""
    return os.environ.get("TCONV_PHASE_SPLIT_EDGES", "1")


def edges_enabled() -> bool:
    return _edges_mode() != "0"


def _edged_plan(weight_shape: Sequence[int], out_w: int, in_w: int, s: int, p: int,
                d: int) -> Optional[PhaseSplitPlan]:
    """The split with offsets counted from -p (module docstring), or None where no input position has all its
    reads inside grad_output."""
    kernel_w = int(weight_shape[4])
    f = [k * d for k in range(kernel_w)]  # offsets from the first tap's: e_k - (-p)
    step = math.gcd(s, d)
    residues = max(v % s for v in f) // step + 1
    taps = max(v // s for v in f) + 1
    # Interior: s*i - p >= 0 (first read), s*(i + Q - 1) - p + (R - 1)*step < W_out (the grid's last read).
    first = -(-p // s)
    stop = min(in_w, (out_w - 1 + p - (residues - 1) * step) // s - taps + 2)
    if stop <= first or residues > KERNEL_PER_DIM_LIMIT or taps > KERNEL_PER_DIM_LIMIT:
        return None
    if residues * taps * int(weight_shape[3]) > TAPS_LIMIT:
        return None
    slots = tuple(tap_slots(k, d, s, p, 0, step, taps, 0, -p) for k in range(kernel_w))
    return PhaseSplitPlan(s, 0, step, residues, taps, 0, stop - first + taps - 1, slots, -p, first, stop)


def plan(grad_output_shape: Sequence[int], weight_shape: Sequence[int], input_shape: Sequence[int],
         stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int]) -> Tuple[Optional[PhaseSplitPlan], str]:
    """The split of a 5-D grad_input call ([N, C, D, H, W] shapes, 3-entry stride/padding/dilation), or
    (None, why not). The transposed conv's output_padding is implicit in grad_output's W size. Of the centred and
    the edged form, the one with fewer MMAs (the centred one on a tie: no edge calls). Planned once per argument set:
    the planning's Python took ~20 us of every grad_input call's host time (run 330, H200, DCGAN: cProfile)."""
    key = (tuple(grad_output_shape), tuple(weight_shape), tuple(input_shape), tuple(stride), tuple(padding),
           tuple(dilation), _edges_mode())
    planned = _PLANS.get(key)
    if planned is None:
        planned = _args.remember(_PLANS, key, _plan(grad_output_shape, weight_shape, input_shape, stride, padding,
                                                    dilation))
    return planned


_PLANS = {}


def _plan(grad_output_shape: Sequence[int], weight_shape: Sequence[int], input_shape: Sequence[int],
          stride: Sequence[int], padding: Sequence[int],
          dilation: Sequence[int]) -> Tuple[Optional[PhaseSplitPlan], str]:
    s, p, d = int(stride[2]), int(padding[2]), int(dilation[2])
    out_w, in_w = int(grad_output_shape[4]), int(input_shape[4])
    if s == 1:
        return None, "W stride is 1 (nothing to split)"
    if int(input_shape[2]) != 1 or int(grad_output_shape[2]) != 1 or int(weight_shape[2]) != 1:
        return None, "3D problem: the D slot that would hold the residues is taken"
    centred, why = _centred_plan(grad_output_shape, weight_shape, input_shape, s, p, d)
    edged = _edged_plan(weight_shape, out_w, in_w, s, p, d) if edges_enabled() else None
    if edged is not None and (centred is None or edged.mma_ratio < centred.mma_ratio):
        return edged, ""
    return centred, why


def _centred_plan(grad_output_shape: Sequence[int], weight_shape: Sequence[int], input_shape: Sequence[int],
                  s: int, p: int, d: int) -> Tuple[Optional[PhaseSplitPlan], str]:
    """Residues counted from o = 0: one view over all of grad_output, no edge calls."""
    kernel_w, out_w, in_w = int(weight_shape[4]), int(grad_output_shape[4]), int(input_shape[4])
    if out_w % s != 0:
        return None, f"grad_output W ({out_w}) is not a multiple of the W stride ({s}): no strided view covers it"
    e = [k * d - p for k in range(kernel_w)]
    q = [v // s for v in e]
    r = [v - qq * s for v, qq in zip(e, q)]
    step = math.gcd(s, d)
    r0, q_min, q_max = min(r), min(q), max(q)
    residues = (max(r) - r0) // step + 1
    # The kernels take symmetric padding, so the W' output size (in_w - 1) + 2*q_min + (Q - 1) + 1 must equal
    # L'; with L' = W_out / s that leaves Q = q_max - q_min + 1 + extra, extra = (r(-p) + r(B) + 1 + op - s) / s
    # >= 0 (B = (K-1)d - p, r(.) = remainder mod s), trailing zero taps the bounds checks never reach.
    out_w_split = out_w // s
    extra = out_w_split - in_w - q_min - q_max
    assert extra >= 0, (grad_output_shape, weight_shape, input_shape, s, p, d)
    taps = q_max - q_min + 1 + extra
    if residues > KERNEL_PER_DIM_LIMIT or taps > KERNEL_PER_DIM_LIMIT:
        return None, f"the split needs {residues} x {taps} taps; the GEMM takes at most {KERNEL_PER_DIM_LIMIT} per dim"
    if residues * taps * int(weight_shape[3]) > TAPS_LIMIT:
        return None, f"the split needs more than {TAPS_LIMIT} taps"
    slots = tuple(tap_slots(k, d, s, p, r0, step, taps, q_min) for k in range(kernel_w))
    return PhaseSplitPlan(s, r0, step, residues, taps, -q_min, out_w_split, slots), ""


def apply(split: PhaseSplitPlan, grad_output: torch.Tensor, weight: torch.Tensor, stride: Sequence[int],
          padding: Sequence[int], dilation: Sequence[int]):
    """The stride-1 description of the input positions [split.first, split.stop) (all of them for a centred
    plan): (grad_output view, split weight, stride, padding, dilation), 5-D tensors.
    The weight is a new [C_in, C_out/g, R, kH, Q] tensor (R*Q/K times the original's size), built on the
    weight's device without host copies (so CUDA graph capture stays legal)."""
    n, c, _, h, w = grad_output.shape
    sn, sc, _, sh, sw = grad_output.stride()
    start = split.base + split.stride * split.first + split.residue_first
    view = grad_output.as_strided((n, c, split.residues, h, split.out_w),
                                  (sn, sc, split.residue_step * sw, sh, split.stride * sw),
                                  grad_output.storage_offset() + start * sw)
    cin, cout_g, _, kh, kw = weight.shape
    slots = tap_slots(torch.arange(kw, device=weight.device), int(dilation[2]), split.stride, int(padding[2]),
                      split.residue_first, split.residue_step, split.taps, -split.padding, split.base)
    grid = weight.new_zeros((cin, cout_g, kh, split.residues * split.taps))
    grid.index_copy_(3, slots, weight[:, :, 0])
    split_weight = grid.view(cin, cout_g, kh, split.residues, split.taps).permute(0, 1, 3, 2, 4)
    return (view, split_weight, [1, int(stride[1]), 1], [0, int(padding[1]), split.padding],
            [1, int(dilation[1]), 1])


def _edge_call(grad_output: torch.Tensor, weight: torch.Tensor, grad_input: torch.Tensor, begin: int, end: int,
               stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int]):
    """Input positions [begin, end) in the original description, on a copy of the grad_output columns they read
    (s*i - p + k*d), zero-padded where those fall outside it, so the call has W padding 0 and no output_padding."""
    s, p, d = int(stride[2]), int(padding[2]), int(dilation[2])
    kernel_w, out_w = int(weight.shape[4]), int(grad_output.shape[4])
    o0 = s * begin - p
    length = s * (end - begin - 1) + (kernel_w - 1) * d + 1
    lo, hi = max(o0, 0), min(o0 + length, out_w)
    columns = torch.nn.functional.pad(grad_output[..., lo:hi], (lo - o0, o0 + length - hi))
    return (grad_input[..., begin:end], columns, weight, list(stride), [int(padding[0]), int(padding[1]), 0],
            list(dilation), False)


def calls(split: PhaseSplitPlan, grad_output: torch.Tensor, weight: torch.Tensor, grad_input: torch.Tensor,
          stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int]):
    """The grad_input calls of a split, 5-D: (grad_input part, grad_output, weight, stride, padding, dilation,
    window) each. The view's call, and for an edged plan one call per non-empty end. window: run the call with
    the GEMM's W-tap window (one A tile per residue and channel chunk, shared by the Q taps): the edged view's
    Q = 2 taps are below the GEMM's own threshold for it (three taps, tuned on forwards), and without it each
    tap gathers its own strided A tile (run 94, HiFi-GAN TF32 fwd+bwd: 27.0 ms against 19.4 centred)."""
    stop = int(grad_input.shape[4]) if split.stop is None else split.stop
    view, split_weight, s, p, d = apply(split, grad_output, weight, stride, padding, dilation)
    window = split.base != 0 and _edges_mode() != "nowindow"
    out = [(grad_input[..., split.first:stop], view, split_weight, s, p, d, window)]
    for begin, end in ((0, split.first), (stop, int(grad_input.shape[4]))):
        if end > begin:
            out.append(_edge_call(grad_output, weight, grad_input, begin, end, stride, padding, dilation))
    return out


__all__ = ["PhaseSplitPlan", "plan", "apply", "calls", "tap_slots", "auto_prefers", "edges_enabled"]
