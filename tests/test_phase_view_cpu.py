"""The one-residue forward as a fill and a stride-1 call into a strided view (tconv/_phase_view.py), and the backward
as the stride-1 problem's gradients on a strided view of grad_output, against PyTorch's, on CPU.

The GPU path runs tconv's ordinary kernels on the view's description, so the description itself (which positions
take taps, the view's first position, step and extent, the stride-1 call's padding and dilation) is what needs
checking; PyTorch's convolution on CPU checks it exactly (float64). The output starts as NaN, so a position neither
the fill nor the call writes fails the comparison. The orchestration in tconv/_ops.py (_forward_through_view's fill
modes, _backward's view branch) runs here too, with PyTorch standing in for the extension's forward and the CPU
implementations for the gradients.
"""
import random

import pytest
import torch
import torch.nn.functional as F

from test_phase_split_cpu import as_5d, pad3
from tconv import _args, _ops, _phase_view

TORCH_FN = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


def view_forward(x, w, bias, stride, padding, output_padding, dilation, groups, untapped_only=False):
    """The forward through the view's fill and stride-1 call (PyTorch's CPU convolution standing in for tconv's
    kernels), or None where plan() refuses. untapped_only: the fill on untapped_views only (TCONV_PHASE_VIEW_FILL
    "untapped" / "overlap")."""
    dims = x.dim() - 2
    shape = _args.output_shape(x.shape, w.shape, stride, padding, output_padding, dilation, groups)
    out = torch.full(shape, float("nan"), dtype=x.dtype)
    x5, w5, out5 = as_5d(x), as_5d(w), as_5d(out)
    view_plan = _phase_view.plan(x5.shape, w5.shape, out5.shape, pad3(stride, 1), pad3(padding, 0),
                                 pad3(dilation, 1))
    if view_plan is None:
        return None
    for target in _phase_view.untapped_views(view_plan, out5) if untapped_only else [out5]:
        _phase_view.fill(target, bias)
    view = _phase_view.output_view(view_plan, out5)
    assert list(view.shape[2:]) == list(view_plan.size)
    view.copy_(F.conv_transpose3d(x5, w5, bias, 1, view_plan.padding,
                                  _phase_view.output_padding(view_plan, x5.shape, w5.shape), groups,
                                  view_plan.dilation))
    assert out.dim() == dims + 2
    return out


# dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
CASES = [
    # fam10's geometry (k3 s2 p1 d2): the odd positions take every tap
    (3, 2, 4, 6, 1, [3, 3, 3], [2, 2, 2], [1, 1, 1], [0, 0, 0], [2, 2, 2], [3, 4, 5], True),
    # padding 0 (r = 0), output padding 1 (the view one longer than the stride-1 call's extent: d / s = 2)
    (2, 1, 3, 5, 1, [3, 2], [2, 2], [0, 0], [1, 0], [4, 2], [4, 5], False),
    # stride 3, dilation 6, padding 4 (r = 2, q = 2), groups, mixed with an unstrided dimension
    (2, 2, 4, 6, 2, [3, 3], [1, 3], [1, 4], [0, 2], [1, 6], [5, 4], True),
    # one tap along a strided dimension (any dilation)
    (2, 1, 2, 3, 1, [1, 3], [3, 2], [1, 2], [2, 1], [5, 2], [4, 6], True),
    # 1D, stride 4, dilation 8, padding larger than a stride
    (1, 2, 3, 2, 1, [4], [4], [6], [3], [8], [7], False),
]


@pytest.mark.parametrize("untapped_only", [False, True], ids=["full_fill", "untapped_fill"])
@pytest.mark.parametrize("case", CASES, ids=[f"c{i}" for i in range(len(CASES))])
def test_phase_view_matches_pytorch(case, untapped_only):
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias = case
    gen = torch.Generator().manual_seed(len(spatial) * 100 + sum(spatial))
    x = torch.randn(batch, cin, *spatial, dtype=torch.float64, generator=gen)
    w = torch.randn(cin, cout // groups, *kernel, dtype=torch.float64, generator=gen)
    b = torch.randn(cout, dtype=torch.float64, generator=gen) if bias else None
    got = view_forward(x, w, b, stride, padding, output_padding, dilation, groups, untapped_only)
    assert got is not None, case
    want = TORCH_FN[dims](x, w, b, stride, padding, output_padding, groups, dilation)
    assert got.shape == want.shape
    torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-12)


def random_one_residue_calls(rng, count):
    """Up to `count` random calls (dims, groups, cin, cout, kernel, stride, padding, output_padding, dilation,
    spatial) whose dilation is a multiple of the stride or whose kernel has one tap, over 1D-3D, groups, padding and
    output padding up to the limits PyTorch allows; those with an empty output are left out."""
    for _ in range(count):
        dims = rng.randint(1, 3)
        groups = rng.choice([1, 2])
        cin, cout = groups * rng.randint(1, 3), groups * rng.randint(1, 3)
        kernel = [rng.randint(1, 4) for _ in range(dims)]
        stride = [rng.randint(1, 4) for _ in range(dims)]
        dilation = [s * rng.randint(1, 3) if k > 1 else rng.randint(1, 4) for s, k in zip(stride, kernel)]
        padding = [rng.randint(0, d * (k - 1)) for d, k in zip(dilation, kernel)]
        output_padding = [rng.randint(0, max(s, d) - 1) for s, d in zip(stride, dilation)]
        spatial = [rng.randint(1, 6) for _ in range(dims)]
        shape = _args.output_shape([1, cin, *spatial], [cin, cout // groups, *kernel], stride, padding,
                                   output_padding, dilation, groups)
        if all(n > 0 for n in shape[2:]):
            yield dims, groups, cin, cout, kernel, stride, padding, output_padding, dilation, spatial


def test_phase_view_random_corners():
    """Random one-residue calls (dilation a multiple of the stride, or one tap) over 1D-3D, groups, padding and
    output padding up to the limits PyTorch allows; every call plan() takes matches PyTorch's."""
    rng = random.Random(119)
    taken = 0
    for dims, groups, cin, cout, kernel, stride, padding, output_padding, dilation, spatial in \
            random_one_residue_calls(rng, 300):
        x = torch.randn(2, cin, *spatial, dtype=torch.float64)
        w = torch.randn(cin, cout // groups, *kernel, dtype=torch.float64)
        b = torch.randn(cout, dtype=torch.float64) if rng.random() < 0.5 else None
        got = view_forward(x, w, b, stride, padding, output_padding, dilation, groups, untapped_only=taken % 2 == 1)
        if got is None:
            continue
        taken += 1
        want = TORCH_FN[dims](x, w, b, stride, padding, output_padding, groups, dilation)
        torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-12)
    assert taken >= 100, taken


def test_phase_view_refuses():
    """No strided dimension, taps on two residues (dilation not a multiple of the stride), or an empty tensor."""
    shape_x, shape_w = [2, 4, 1, 5, 6], [4, 3, 1, 3, 3]
    assert _phase_view.plan(shape_x, shape_w, [2, 3, 1, 7, 8], [1, 1, 1], [0, 0, 0], [1, 1, 1]) is None
    assert _phase_view.plan(shape_x, shape_w, [2, 3, 1, 11, 13], [1, 2, 2], [0, 0, 0], [1, 1, 1]) is None
    assert _phase_view.plan(shape_x, shape_w, [2, 3, 1, 13, 15], [1, 2, 2], [1, 1, 1], [1, 3, 3]) is None
    assert _phase_view.plan([0] + shape_x[1:], shape_w, [0, 3, 1, 13, 15], [1, 2, 2], [0, 1, 1], [1, 2, 2]) is None


def test_phase_view_plans_fam10():
    """fam10 (k3 s2 p1 d2, 16 x 32 x 32 -> 33 x 65 x 65): the odd positions, a 16 x 32 x 32 view, k3 p1 d1."""
    view_plan = _phase_view.plan([16, 32, 16, 32, 32], [32, 64, 3, 3, 3], [16, 64, 33, 65, 65], [2, 2, 2],
                                 [1, 1, 1], [2, 2, 2])
    assert view_plan == _phase_view.PhaseViewPlan((2, 2, 2), (1, 1, 1), (16, 32, 32), (1, 1, 1), (1, 1, 1))
    assert _phase_view.output_padding(view_plan, [16, 32, 16, 32, 32], [32, 64, 3, 3, 3]) == (0, 0, 0)


def view_backward(x, w, grad, stride, padding, dilation, groups):
    """grad_input and grad_weight through the view of grad_output and the stride-1 description (tconv's CPU
    implementations standing in for its kernels), as _ops._backward runs them; None where plan() refuses."""
    dims = x.dim() - 2
    view_plan = _phase_view.plan(as_5d(x).shape, as_5d(w).shape, as_5d(grad).shape, pad3(stride, 1),
                                 pad3(padding, 0), pad3(dilation, 1))
    if view_plan is None:
        return None
    taps = _phase_view.grad_output_taps(view_plan, as_5d(grad), dims)
    assert taps.dim() == grad.dim() and taps.data_ptr() != 0 and taps._base is not None  # a view, not a copy
    view_stride, view_padding, view_dilation = _phase_view.stride1_arguments(view_plan, dims)
    assert len(view_stride) == len(view_padding) == len(view_dilation) == dims
    grad_input = _ops.conv_transpose_grad_input_cpu(taps, w, list(x.shape), view_stride, view_padding,
                                                    view_dilation, groups)
    grad_weight = _ops.conv_transpose_grad_weight_cpu(taps, x, list(w.shape), view_stride, view_padding,
                                                      view_dilation, groups)
    return grad_input, grad_weight


@pytest.mark.parametrize("case", CASES, ids=[f"c{i}" for i in range(len(CASES))])
def test_phase_view_backward_matches_pytorch(case):
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    gen = torch.Generator().manual_seed(len(spatial) * 100 + sum(spatial) + 1)
    x = torch.randn(batch, cin, *spatial, dtype=torch.float64, generator=gen).requires_grad_()
    w = torch.randn(cin, cout // groups, *kernel, dtype=torch.float64, generator=gen).requires_grad_()
    out = TORCH_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
    grad = torch.randn(out.shape, dtype=torch.float64, generator=gen)
    want = torch.autograd.grad(out, [x, w], grad)
    got = view_backward(x.detach(), w.detach(), grad, stride, padding, dilation, groups)
    assert got is not None, case
    for g, g_want in zip(got, want):
        assert g.shape == g_want.shape
        torch.testing.assert_close(g, g_want, rtol=1e-12, atol=1e-12)


def test_phase_view_backward_random_corners():
    """The backward's description on random one-residue calls, channels-last grad_output included."""
    rng = random.Random(120)
    taken = 0
    for dims, groups, cin, cout, kernel, stride, padding, output_padding, dilation, spatial in \
            random_one_residue_calls(rng, 200):
        x = torch.randn(2, cin, *spatial, dtype=torch.float64).requires_grad_()
        w = torch.randn(cin, cout // groups, *kernel, dtype=torch.float64).requires_grad_()
        out = TORCH_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
        grad = torch.randn(out.shape, dtype=torch.float64)
        if dims > 1 and rng.random() < 0.5:
            grad = grad.contiguous(memory_format=torch.channels_last if dims == 2 else torch.channels_last_3d)
        got = view_backward(x.detach(), w.detach(), grad, stride, padding, dilation, groups)
        if got is None:
            continue
        taken += 1
        for g, g_want in zip(got, torch.autograd.grad(out, [x, w], grad)):
            torch.testing.assert_close(g, g_want, rtol=1e-12, atol=1e-12)
    assert taken >= 60, taken


def test_backward_view_only_for_cuda_eager_calls():
    """The autograd path asks for the view only on CUDA grad_output: CPU calls keep the strided description."""
    x, w = torch.randn(1, 2, 4, 5), torch.randn(2, 3, 3, 3)
    grad = torch.randn(1, 3, 9, 11)
    assert _ops._backward_view_plan(grad, x, w, [2, 2], [0, 0], [2, 2]) is None


def test_phase_view_taken_from_four_phases():
    """taken_plan(): fam10's 8 phases run through the view, fam12's 2 (1D k3 s2 p1 d2) keep the strided call (run
    578) though plan() describes it, and a 1D stride 4 takes it."""
    fam12 = ([16, 32, 1, 1, 131072], [32, 64, 1, 1, 3], [16, 64, 1, 1, 262145], [1, 1, 2], [0, 0, 1], [1, 1, 2])
    assert _phase_view.plan(*fam12) is not None and _phase_view.taken_plan(*fam12) is None
    fam10 = ([16, 32, 16, 32, 32], [32, 64, 3, 3, 3], [16, 64, 33, 65, 65], [2, 2, 2], [1, 1, 1], [2, 2, 2])
    assert _phase_view.taken_plan(*fam10) == _phase_view.plan(*fam10) is not None
    stride4 = ([2, 3, 1, 1, 40], [3, 2, 1, 1, 1], [2, 2, 1, 1, 160], [1, 1, 4], [0, 0, 0], [1, 1, 3])
    assert _phase_view.taken_plan(*stride4) is not None


def test_untapped_views_and_the_taps_view_cover_each_position_once():
    """untapped_views and output_view partition the output on random one-residue plans; stride 2 in three
    dimensions gives three slabs (a half, a quarter, an eighth)."""
    rng = random.Random(121)
    planned = 0
    for dims, groups, cin, cout, kernel, stride, padding, output_padding, dilation, spatial in \
            random_one_residue_calls(rng, 300):
        shape = _args.output_shape([1, cin, *spatial], [cin, cout // groups, *kernel], stride, padding,
                                   output_padding, dilation, groups)
        out5 = as_5d(torch.zeros(shape))
        view_plan = _phase_view.plan(as_5d(torch.empty(1, cin, *spatial)).shape,
                                     as_5d(torch.empty(cin, cout // groups, *kernel)).shape, out5.shape,
                                     pad3(stride, 1), pad3(padding, 0), pad3(dilation, 1))
        if view_plan is None:
            continue
        planned += 1
        views = _phase_view.untapped_views(view_plan, out5)
        assert len(views) == sum(s - 1 for s in view_plan.stride)
        for view in views + [_phase_view.output_view(view_plan, out5)]:
            view += 1
        assert bool((out5 == 1).all()), (stride, padding, dilation, kernel, spatial)
    assert planned >= 100, planned
    fam10 = _phase_view.plan([16, 32, 16, 32, 32], [32, 64, 3, 3, 3], [16, 64, 33, 65, 65], [2, 2, 2], [1, 1, 1],
                             [2, 2, 2])
    out5 = torch.empty(1, 1, 33, 65, 65)
    assert [v.numel() for v in _phase_view.untapped_views(fam10, out5)] == [17 * 65 * 65, 16 * 33 * 65, 16 * 32 * 33]


class _PyTorchForwardOut:
    """Stands in for the extension's forward_out on CPU: PyTorch's transposed convolution into `out` (any strides)."""
    calls = 0

    def forward_out(self, input5, weight5, bias, out, stride, padding, dilation, groups, tf32, algorithm):
        type(self).calls += 1
        assert tuple(stride) == (1, 1, 1), "the view's call is stride 1"
        full = [_phase_view._stride1_extent(int(input5.shape[2 + i]), padding[i], dilation[i],
                                            int(weight5.shape[2 + i])) for i in range(3)]
        output_padding = [int(out.shape[2 + i]) - full[i] for i in range(3)]
        out.copy_(F.conv_transpose3d(input5, weight5, bias, list(stride), list(padding), output_padding, groups,
                                     list(dilation)))


@pytest.mark.parametrize("fill_mode", ["full", "untapped"])
@pytest.mark.parametrize("case", CASES, ids=[f"c{i}" for i in range(len(CASES))])
def test_forward_through_view_orchestration(case, fill_mode, monkeypatch):
    """_ops._forward_through_view itself (the fill mode, the view and the stride-1 arguments it hands the extension),
    with PyTorch standing in for the extension, into an output of NaNs: equal to PyTorch's strided forward."""
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias = case
    gen = torch.Generator().manual_seed(7 + sum(spatial))
    x = torch.randn(batch, cin, *spatial, dtype=torch.float64, generator=gen)
    w = torch.randn(cin, cout // groups, *kernel, dtype=torch.float64, generator=gen)
    b = torch.randn(cout, dtype=torch.float64, generator=gen) if bias else None
    out = torch.full(_args.output_shape(x.shape, w.shape, stride, padding, output_padding, dilation, groups),
                     float("nan"), dtype=torch.float64)
    x5, w5, out5 = as_5d(x), as_5d(w), as_5d(out)
    view_plan = _phase_view.plan(x5.shape, w5.shape, out5.shape, pad3(stride, 1), pad3(padding, 0),
                                 pad3(dilation, 1))
    monkeypatch.setattr(_phase_view, "FILL_MODE", fill_mode)
    monkeypatch.setattr(_ops._build, "load", lambda: _PyTorchForwardOut())
    _PyTorchForwardOut.calls = 0
    _ops._forward_through_view(view_plan, x5, w5, b, out5, groups, False)
    assert _PyTorchForwardOut.calls == 1
    torch.testing.assert_close(out, TORCH_FN[dims](x, w, b, stride, padding, output_padding, groups, dilation),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("weight_mode", ["view", "compact", "strided"])
@pytest.mark.parametrize("case", CASES, ids=[f"c{i}" for i in range(len(CASES))])
def test_backward_through_view_orchestration(case, weight_mode, monkeypatch):
    """_ops._backward's view branch itself (with "cpu" among the view's devices: the CPU implementations run on the
    strided view of grad_output with the stride-1 arguments), every gradient against PyTorch's autograd, bias
    included; the view was taken (grad_output_taps counted). Each TCONV_BACKWARD_VIEW_GRAD_WEIGHT mode, taken wherever
    the view is (every case's innermost dimension is strided, so its rows are): "compact" sums over compact copies of
    batch ranges (a share of a third here, so the ranges have one sample or more), "strided" calls the strided
    grad_weight (through_view=False) once."""
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    gen = torch.Generator().manual_seed(11 + sum(spatial))
    x = torch.randn(batch, cin, *spatial, dtype=torch.float64, generator=gen).requires_grad_()
    w = torch.randn(cin, cout // groups, *kernel, dtype=torch.float64, generator=gen).requires_grad_()
    b = torch.randn(cout, dtype=torch.float64, generator=gen).requires_grad_()
    out = TORCH_FN[dims](x, w, b, stride, padding, output_padding, groups, dilation)
    grad = torch.randn(out.shape, dtype=torch.float64, generator=gen)
    want = torch.autograd.grad(out, [x, w, b], grad)
    monkeypatch.setattr(_ops, "_BACKWARD_VIEW_DEVICES", ("cuda", "cpu"))
    monkeypatch.setattr(_phase_view, "BACKWARD_ENABLED", True)
    monkeypatch.setattr(_phase_view, "GRAD_WEIGHT_MODE", weight_mode)
    monkeypatch.setattr(_phase_view, "COMPACT_SHARE", 3)
    backward = _ops._backward
    strided = []  # needs_input_grad of the calls that keep the strided path

    def counted_backward(*args, **kwargs):
        if not kwargs.get("through_view", True):
            strided.append(args[4])
        return backward(*args, **kwargs)
    monkeypatch.setattr(_ops, "_backward", counted_backward)
    taps = _phase_view.grad_output_taps
    views = []
    monkeypatch.setattr(_phase_view, "grad_output_taps", lambda *args: views.append(1) or taps(*args))
    batches = _phase_view.compact_batches
    compacted = []
    monkeypatch.setattr(_phase_view, "compact_batches", lambda *args: compacted.append(batches(*args)) or
                        compacted[-1])
    got = _ops._backward(grad, x.detach(), w.detach(), True, (True, True, True), stride, padding, dilation, groups,
                         direct=True)
    taken = _phase_view.taken_plan(as_5d(x).shape, as_5d(w).shape, as_5d(grad).shape, pad3(stride, 1),
                                   pad3(padding, 0), pad3(dilation, 1)) is not None
    assert views == ([1] if taken else []), case
    assert len(compacted) == (1 if taken and weight_mode == "compact" else 0) and all(compacted), (case, compacted)
    assert strided == ([(False, True, False)] if taken and weight_mode == "strided" else []), (case, strided)
    for g, g_want in zip(got, want):
        torch.testing.assert_close(g, g_want, rtol=1e-12, atol=1e-12)


def test_compact_batches():
    """compact_batches: balanced batch ranges covering the batch, each copy within 1/COMPACT_SHARE of grad_output;
    None where the taps' innermost dimension or channels have unit stride, or one sample's taps exceed the share."""
    rng = random.Random(5)
    for _ in range(300):
        batch, channels = rng.randint(1, 40), rng.randint(1, 6)
        stride = [rng.randint(1, 3) for _ in range(3)]
        stride[2] = rng.randint(2, 4)
        grad = torch.empty(batch, channels, *[rng.randint(s, 9) for s in stride])
        taps = grad[:, :, ::stride[0], ::stride[1], 1::stride[2]]
        ranges = _phase_view.compact_batches(taps, grad.numel())
        per_sample, allowed = taps[0].numel(), grad.numel() // _phase_view.COMPACT_SHARE
        if per_sample == 0 or per_sample > allowed:
            assert ranges is None
            continue
        assert ranges[0][0] == 0 and ranges[-1][1] == batch
        assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
        assert all((hi - lo) * per_sample <= allowed for lo, hi in ranges), (ranges, per_sample, allowed)
        sizes = [hi - lo for lo, hi in ranges]  # the fewest ranges, all of one size but the last
        assert len(ranges) == -(-batch // sizes[0]) <= -(-batch // (allowed // per_sample)) and \
            len(set(sizes[:-1])) <= 1 and sizes[-1] <= sizes[0]
    grad = torch.empty(16, 64, 33, 65, 65)  # fam10's grad_output: its taps hold 11.8 %, so two ranges of 8
    assert _phase_view.compact_batches(grad[:, :, 1::2, 1::2, 1::2][:, :, :16, :32, :32], grad.numel()) == \
        [(0, 8), (8, 16)]
    assert _phase_view.compact_batches(grad[:, :, 1::2, 1::2, :], grad.numel()) is None  # unit innermost stride
    channels_last = grad[:1].contiguous(memory_format=torch.channels_last_3d)
    assert _phase_view.compact_batches(channels_last[:, :, 1::2, 1::2, 1::2], channels_last.numel()) is None
    assert _phase_view.compact_batches(grad[:1, :, 1::2, 1::2, 1::2], grad[:1].numel()) is None  # one sample: 12 %


def test_output_view_matches_slicing():
    """output_view's as_strided against the slicing it stands for, on random plans over contiguous, channels-last
    and offset (batch-sliced) tensors."""
    taken = 0
    for dims, groups, cin, cout, kernel, stride, padding, output_padding, dilation, spatial in \
            random_one_residue_calls(random.Random(17), 200):
        out = _args.output_shape([2, cin, *spatial], [cin, cout // groups, *kernel], stride, padding, output_padding,
                                 dilation, groups)
        view_plan = _phase_view.plan([2, cin, *pad3(spatial, 1)], [cin, cout // groups, *pad3(kernel, 1)],
                                     [*out[:2], *pad3(out[2:], 1)], pad3(stride, 1), pad3(padding, 0),
                                     pad3(dilation, 1))
        if view_plan is None:
            continue
        taken += 1
        base = torch.arange(float(3 * cout * torch.Size(pad3(out[2:], 1)).numel())).view(3, cout, *pad3(out[2:], 1))
        for t in (base[1:], base.contiguous(memory_format=torch.channels_last_3d)[1:]):
            (r0, r1, r2), (s0, s1, s2), (n0, n1, n2) = view_plan.residue, view_plan.stride, view_plan.size
            want = t[:, :, r0::s0, r1::s1, r2::s2][:, :, :n0, :n1, :n2]
            got = _phase_view.output_view(view_plan, t)
            assert got.shape == want.shape and got.stride() == want.stride() and torch.equal(got, want)
    assert taken > 50, taken
