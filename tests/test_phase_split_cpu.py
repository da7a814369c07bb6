"""The phase split of strided grad_input (tconv/_phase_split.py) against PyTorch's grad_input, on CPU.

The GPU path runs tconv's ordinary kernels on the split description, so the split itself (the
strided view of grad_output, the rearranged weights, the new stride/padding/dilation) is what needs
checking, and PyTorch's convolution on CPU checks it exactly (float64) over every parameter corner.
"""
import random

import pytest
import torch
import torch.nn.functional as F

from tconv import _args, _ops, _phase_split

TORCH_FN = {1: F.conv_transpose1d, 2: F.conv_transpose2d}


def pad3(v, fill):
    return [fill] * (3 - len(v)) + list(v)


def as_5d(t):
    while t.dim() < 5:
        t = t.unsqueeze(2)
    return t


def split_grad_input(grad_output, weight, input_size, stride, padding, dilation, groups):
    """grad_input through the split description's calls and PyTorch's CPU convolution (what the CUDA path
    runs through tconv's kernels), or None where no split applies. The output starts as NaN, so a position
    no call writes fails the comparison."""
    go5, w5 = as_5d(grad_output), as_5d(weight)
    in5 = list(input_size[:2]) + pad3(input_size[2:], 1)
    s3, p3, d3 = pad3(stride, 1), pad3(padding, 0), pad3(dilation, 1)
    split, why = _phase_split.plan(go5.shape, w5.shape, in5, s3, p3, d3)
    if split is None:
        assert why
        return None, None
    grad_input5 = torch.full(in5, float("nan"), dtype=grad_output.dtype)
    for gi, go, w, s, p, d, _ in _phase_split.calls(split, go5, w5, grad_input5, s3, p3, d3):
        # The kernels' consistency rule (conv_transpose.cpp make_params): each call's grad_output sizes are
        # what a transposed conv of its grad_input part produces, output_padding < max(stride, dilation).
        full = _args.output_size(list(gi.shape[2:]), list(w.shape[2:]), s, p, [0, 0, 0], d)
        for dim in range(3):
            assert 0 <= go.shape[2 + dim] - full[dim] < max(s[dim], d[dim]), (go.shape, full, s, d)
        gi.copy_(_ops.conv_transpose_grad_input_cpu(go, w, list(gi.shape), s, p, d, groups))
    return grad_input5.reshape(input_size), split


def random_case(rng):
    while True:  # redraw until the output is non-empty
        dims = rng.choice([1, 2])
        groups = rng.choice([1, 1, 2, 3])
        cin, cout = groups * rng.randint(1, 4), groups * rng.randint(1, 4)
        kernel = [rng.randint(1, 9) for _ in range(dims)]
        stride = [rng.randint(1, 3) for _ in range(dims - 1)] + [rng.randint(2, 9)]
        dilation = [rng.randint(1, 3) for _ in range(dims)]
        padding = [rng.randint(0, (k - 1) * dd) for k, dd in zip(kernel, dilation)]
        output_padding = [rng.randint(0, max(s, dd) - 1) for s, dd in zip(stride, dilation)]
        spatial = [rng.randint(1, 12) for _ in range(dims)]
        # Most draws should split: make W_out a multiple of the W stride by choosing output_padding.
        full = _args.output_size(spatial, kernel, stride, padding, [0] * dims, dilation)
        want = (-full[-1]) % stride[-1]
        if rng.random() < 0.8 and want < max(stride[-1], dilation[-1]):
            output_padding[-1] = want
        if all(o > 0 for o in _args.output_size(spatial, kernel, stride, padding, output_padding, dilation)):
            return (dims, rng.randint(0, 3), cin, cout, groups, kernel, stride, padding, output_padding, dilation,
                    spatial)


def check_case(dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial,
               layout="contiguous"):
    gen = torch.Generator().manual_seed(hash((dims, cin, cout, tuple(kernel), tuple(stride))) % 1000)
    x = torch.randn(batch, cin, *spatial, dtype=torch.float64, generator=gen)
    w = torch.randn(cin, cout // groups, *kernel, dtype=torch.float64, generator=gen)
    out_shape = _args.output_shape(x.shape, w.shape, stride, padding, output_padding, dilation, groups)
    grad = torch.randn(out_shape, dtype=torch.float64, generator=gen)
    if layout == "channels_last" and dims == 2:
        grad = grad.contiguous(memory_format=torch.channels_last)
    elif layout == "offset":  # a view with a storage offset and a non-unit W stride
        grad = torch.randn([*out_shape[:-1], out_shape[-1] * 2 + 1], dtype=torch.float64, generator=gen)[..., 1::2]
    ref = _ops.conv_transpose_grad_input_cpu(grad, w, list(x.shape), stride, padding, dilation, groups)
    got, split = split_grad_input(grad, w, list(x.shape), stride, padding, dilation, groups)
    if got is None:
        return None
    torch.testing.assert_close(got, ref, atol=1e-10, rtol=1e-10)
    return split


@pytest.fixture(params=["edges", "centred_only"])
def split_forms(request, monkeypatch):
    """Both forms of plan(): edged where it has fewer MMAs (the default), and centred only."""
    monkeypatch.setenv("TCONV_PHASE_SPLIT_EDGES", "1" if request.param == "edges" else "0")
    return request.param


@pytest.mark.parametrize("seed", range(400))
def test_split_matches_torch_random(seed, split_forms):
    rng = random.Random(seed)
    case = random_case(rng)
    layout = ["contiguous", "channels_last", "offset"][seed % 3]
    check_case(*case, layout=layout)


# The suite shapes it is meant for, scaled down (channels, length), and the corners of plan():
# residues of one class (d sharing a factor with s), fewer residues than the stride, trailing zero taps.
CASES = {
    "hifigan": (1, 2, 6, 4, 1, [16], [8], [4], [0], [1], [20]),
    "dcgan": (2, 2, 6, 4, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [5, 6]),
    "fam12_op1": (1, 2, 3, 5, 1, [3], [2], [1], [1], [2], [17]),  # fam12 itself (W_out odd) does not split
    "k2s4": (1, 1, 2, 3, 1, [2], [4], [0], [2], [1], [9]),
    "trailing_zero_tap": (1, 2, 3, 3, 1, [3], [2], [1], [1], [1], [5]),
    "grouped_2d": (2, 1, 6, 9, 3, [3, 5], [2, 3], [1, 2], [1, 1], [1, 2], [4, 7]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_split_matches_torch_named(name, split_forms):
    split = check_case(*CASES[name])
    assert split is not None, name
    edged = split_forms == "edges"
    if name == "hifigan" and edged:  # 16 taps at stride 8 from -p: 8 residues x 2 shifts, one edge position at each end
        assert (split.residues, split.taps, split.padding) == (8, 2, 0) and split.mma_ratio == 1.0
        assert (split.base, split.first, split.stop) == (-4, 1, 19)
    if name == "hifigan" and not edged:  # from 0: 8 residues x 3 shifts
        assert (split.residues, split.taps, split.padding) == (8, 3, 1) and split.mma_ratio == 1.5
    if name == "fam12_op1" and edged:  # k3 s2 d2 p1 from -p: offsets 0, 2, 4, one residue, no empty slot
        assert (split.residues, split.taps, split.mma_ratio) == (1, 3, 1.0)
    if name == "fam12_op1" and not edged:  # from 0 every tap has residue 1 -> one residue; op 1 adds a zero tap
        assert (split.residues, split.taps) == (1, 4)
    if name == "k2s4":  # two residues of four used
        assert split.residues == 2 and split.mma_ratio == 1.0
    if name == "trailing_zero_tap" and not edged:
        assert split.taps == 3 and split.mma_ratio == 2.0
    if name == "trailing_zero_tap" and edged:  # k3 s2 p1 from -p: offsets 0, 1, 2 in a 2 x 2 grid
        assert (split.residues, split.taps) == (2, 2) and split.mma_ratio == 4 / 3


@pytest.mark.parametrize("shapes,why", [
    (([1, 2, 1, 1, 9], [2, 2, 1, 1, 3], [1, 2, 1, 1, 9], [1, 1, 1], [1, 1, 1], [1, 1, 1]), "stride is 1"),
    (([1, 2, 3, 1, 8], [2, 2, 2, 1, 2], [1, 2, 2, 1, 4], [1, 1, 2], [0, 0, 0], [1, 1, 1]), "3D"),
    (([1, 2, 1, 1, 11], [2, 2, 1, 1, 4], [1, 2, 1, 1, 5], [1, 1, 2], [1, 1, 1], [1, 1, 1]), "not a multiple"),
])
def test_plan_refusals_explain(shapes, why, monkeypatch):
    monkeypatch.setenv("TCONV_PHASE_SPLIT_EDGES", "0")
    split, reason = _phase_split.plan(*shapes)
    assert split is None and why in reason


def test_plans_are_made_once_per_argument_set(monkeypatch):
    shapes = ([1, 2, 1, 1, 16], [2, 2, 1, 1, 4], [1, 2, 1, 1, 8], [1, 1, 2], [0, 0, 1], [1, 1, 1])
    _phase_split._PLANS.clear()
    first = _phase_split.plan(*shapes)
    assert first == _phase_split._plan(*shapes) and first[0] is not None
    assert _phase_split.plan(*(tuple(v) for v in shapes)) is first  # lists and tuples: one entry
    monkeypatch.setenv("TCONV_PHASE_SPLIT_EDGES", "0")  # the edges switch is part of the key
    assert _phase_split.plan(*shapes) == _phase_split._plan(*shapes)
    assert len(_phase_split._PLANS) == 2


def test_edged_plan_needs_no_multiple_of_the_stride():
    # W_out 11 at stride 2 has no centred view; counted from -p (k4 p1: offsets 0..3, 2 x 2) it has an interior.
    split, _ = _phase_split.plan([1, 2, 1, 1, 11], [2, 2, 1, 1, 4], [1, 2, 1, 1, 5], [1, 1, 2], [1, 1, 1], [1, 1, 1])
    assert split is not None and (split.residues, split.taps, split.first, split.stop) == (2, 2, 1, 5)


def test_edged_calls_force_the_window_on_the_interior_only(monkeypatch):
    """The edged interior's two taps are below the GEMM's window threshold (three): calls() asks for the window
    there (run 94: without it HiFi-GAN's fwd+bwd went 19.4 -> 27.0 ms), never on the edge calls, never centred."""
    go, w, gi = torch.randn(1, 3, 1, 1, 160), torch.randn(2, 3, 1, 1, 16), torch.empty(1, 2, 1, 1, 20)
    args = ([1, 1, 8], [0, 0, 4], [1, 1, 1])
    split, _ = _phase_split.plan(go.shape, w.shape, gi.shape, *args)
    flags = [c[-1] for c in _phase_split.calls(split, go, w, gi, *args)]
    assert split.base == -4 and flags == [True, False, False]
    monkeypatch.setenv("TCONV_PHASE_SPLIT_EDGES", "nowindow")
    assert [c[-1] for c in _phase_split.calls(split, go, w, gi, *args)] == [False, False, False]
    monkeypatch.setenv("TCONV_PHASE_SPLIT_EDGES", "0")
    split, _ = _phase_split.plan(go.shape, w.shape, gi.shape, *args)
    assert split.base == 0 and [c[-1] for c in _phase_split.calls(split, go, w, gi, *args)] == [False]


def test_edged_plan_refuses_lines_without_an_interior():
    # One input position whose reads start before grad_output: no interior, and the centred form applies.
    split, _ = _phase_split.plan([1, 2, 1, 1, 8], [2, 2, 1, 1, 16], [1, 2, 1, 1, 1], [1, 1, 8], [0, 0, 4], [1, 1, 1])
    assert split is not None and split.base == 0


def test_apply_copies_no_grad_output_data():
    grad = torch.randn(2, 3, 1, 1, 16)
    w = torch.randn(4, 3, 1, 1, 4)
    split, _ = _phase_split.plan(grad.shape, w.shape, [2, 4, 1, 1, 8], [1, 1, 2], [0, 0, 1], [1, 1, 1])
    view, *_ = _phase_split.apply(split, grad, w, [1, 1, 2], [0, 0, 1], [1, 1, 1])
    assert view.data_ptr() >= grad.data_ptr() and view.untyped_storage().data_ptr() == grad.untyped_storage().data_ptr()


@pytest.mark.parametrize("source,pattern,mirror", [
    ("conv_transpose.h", r"kGroupedPreferredMaxChannelProduct = (\d+);", "GROUPED_PREFERRED_MAX_CHANNEL_PRODUCT"),
    ("conv_transpose_igemm.cu", r"constexpr int kMaxKernelPerDim = (\d+);", "KERNEL_PER_DIM_LIMIT"),
    ("igemm_config.h", r"static constexpr int kMaxTaps = (\d+);", "TAPS_LIMIT"),
])
def test_python_mirrors_match_the_cuda_sources(source, pattern, mirror):
    import re
    from pathlib import Path

    text = (Path(_phase_split.__file__).parent / "csrc" / source).read_text()
    assert int(re.search(pattern, text).group(1)) == getattr(_phase_split, mirror)


def test_auto_takes_the_split_where_it_was_measured_faster():
    def decide(spatial, kernel, stride, padding, cin=512, cout=256, groups=1, dtype=torch.float32):
        dims = len(spatial)
        out = _args.output_size(spatial, kernel, stride, padding, [0] * dims, [1] * dims)
        go, w = [16, cout, *pad3(out, 1)], [cin, cout // groups, *pad3(kernel, 1)]
        split, _ = _phase_split.plan(go, w, [16, cin, *pad3(spatial, 1)], pad3(stride, 1), pad3(padding, 0),
                                     [1, 1, 1])
        return _phase_split.auto_prefers(split, go, w, groups, dtype)

    assert decide([8192], [16], [8], [4])  # HiFi-GAN: 1.82x in run 34 (TF32); fwd+bwd 67.5 -> 48.0 ms exact (run 238)
    assert decide([8192], [8], [4], [2]) and decide([8192], [11], [5], [3])
    assert not decide([8192], [4], [2], [1])  # stride 2: 0.86x
    assert not decide([8192], [5], [3], [1])  # 1.8x the MMAs: 0.80x
    assert not decide([32, 32], [8, 8], [4, 4], [2, 2])  # 2D: 0.68x
    assert not decide([8192], [16], [8], [4], dtype=torch.bfloat16)
    assert not decide([8192], [16], [8], [4], cin=8, cout=8)  # the grouped kernels' territory
