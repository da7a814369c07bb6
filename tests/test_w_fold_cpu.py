"""The forward's W fold (tconv/_w_fold.py: the description conv_transpose_igemm.cu's fold_w, weight packing and
store_folded_tile encode) against PyTorch's forward, on CPU in float64.

The GPU path runs the folded GEMM and the interleaving store in CUDA; this checks the formulas it rests on
(taps T, rows U, the tap slot of each k, the W shift p, the bias per channel) over every parameter corner,
and that the Python mirrors of its constants match the CUDA source. tests/test_conv_transpose_gpu.py runs the
kernels themselves ("igemm_fold" / "igemm_nofold").
"""
import random
import re
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from tconv import _args, _w_fold

TORCH_FN = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


def check_case(dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias):
    gen = torch.Generator().manual_seed(hash((dims, cin, cout, tuple(kernel), tuple(stride))) % 1000)
    x = torch.randn(batch, cin, *spatial, dtype=torch.float64, generator=gen)
    w = torch.randn(cin, cout // groups, *kernel, dtype=torch.float64, generator=gen)
    b = torch.randn(cout, dtype=torch.float64, generator=gen) if bias else None
    ref = TORCH_FN[dims](x, w, b, stride, padding, output_padding, groups, dilation)
    got = _w_fold.forward(x, w, b, stride, padding, output_padding, dilation, groups, ref.shape[-1])
    assert got.shape == ref.shape
    torch.testing.assert_close(got, ref, atol=1e-10, rtol=1e-10)
    return _w_fold.plan(kernel[-1], stride[-1], padding[-1], dilation[-1], ref.shape[-1])


def random_case(rng):
    while True:  # redraw until the output is non-empty
        dims = rng.choice([1, 2, 3])
        groups = rng.choice([1, 1, 2, 3])
        cin, cout = groups * rng.randint(1, 3), groups * rng.randint(1, 3)
        kernel = [rng.randint(1, 4) for _ in range(dims - 1)] + [rng.randint(1, 17)]
        stride = [rng.randint(1, 3) for _ in range(dims - 1)] + [rng.randint(2, 9)]
        dilation = [rng.randint(1, 3) for _ in range(dims)]
        padding = [rng.randint(0, (k - 1) * d) for k, d in zip(kernel, dilation)]
        output_padding = [rng.randint(0, max(s, d) - 1) for s, d in zip(stride, dilation)]
        spatial = [rng.randint(1, 4) for _ in range(dims - 1)] + [rng.randint(1, 12)]
        if all(o > 0 for o in _args.output_size(spatial, kernel, stride, padding, output_padding, dilation)):
            return (dims, rng.randint(0, 2), cin, cout, groups, kernel, stride, padding, output_padding, dilation,
                    spatial, rng.random() < 0.5)


@pytest.mark.parametrize("seed", range(300))
def test_fold_matches_torch_random(seed):
    check_case(*random_case(random.Random(seed)))


# The suite's strided shapes, scaled down, and the corners: padding beyond one stride, output_padding, dilation
# sharing a factor with the stride (every tap in one column), a kernel shorter than the stride.
CASES = {
    "hifigan": (1, 2, 6, 4, 1, [16], [8], [4], [0], [1], [20], True),
    "dcgan": (2, 2, 6, 4, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [5, 6], False),
    "unet3d": (3, 1, 4, 6, 1, [2, 2, 2], [2, 2, 2], [0, 0, 0], [0, 0, 0], [1, 1, 1], [3, 2, 5], True),
    "k3s2_op1": (2, 2, 3, 5, 1, [3, 3], [2, 2], [1, 1], [1, 1], [1, 1], [4, 7], True),
    "fam12": (1, 2, 3, 5, 1, [3], [2], [1], [0], [2], [17], False),
    "fam13": (2, 1, 3, 4, 1, [3, 3], [5, 5], [1, 1], [0, 0], [2, 2], [3, 6], False),
    "padding_past_stride": (1, 2, 3, 3, 1, [9], [2], [7], [1], [1], [6], True),
    "kernel_below_stride": (1, 1, 2, 3, 1, [2], [5], [0], [4], [1], [7], True),
    "grouped": (2, 2, 6, 9, 3, [3, 5], [2, 3], [1, 2], [1, 1], [1, 2], [4, 7], True),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_fold_matches_torch_named(name):
    fold = check_case(*CASES[name])
    kernel_w = CASES[name][5][-1]
    ratio = fold.mma_ratio(kernel_w)
    if name in ("hifigan", "dcgan", "unet3d"):  # no empty slots
        assert ratio == 1.0
    if name == "hifigan":  # 16 taps at stride 8: 8 columns x 2 taps; 65536-like rows = out/8 + p/8 rounded up
        assert (fold.taps, fold.rows) == (2, (20 * 8 + 4 + 7) // 8)
    if name == "fam12":  # k3 s2 d2: every tap in column 0, so half the columns are empty
        assert fold.taps == 3 and ratio == 2.0
    if name == "k3s2_op1":
        assert fold.taps == 2 and ratio == 4 / 3


def auto_folds_nd(cin, spatial, kernel, stride, padding, dilation, output_padding=None, split_tf32=False):
    output_padding = output_padding or [0] * len(kernel)
    out = _args.output_size(spatial, kernel, stride, padding, output_padding, dilation)
    return _w_fold.auto_folds(cin, kernel, stride, padding[-1], dilation[-1], out[-1], split_tf32)


def auto_folds(spatial_w, kernel_w, stride_w, padding_w, dilation_w=1, output_padding_w=0, cin=512):
    """1D calls; a C_in deep enough that only the work-ratio rule can fold them."""
    return auto_folds_nd(cin, [spatial_w], [kernel_w], [stride_w], [padding_w], [dilation_w], [output_padding_w])


def test_auto_folds_where_it_was_measured_faster():
    # runs 39-40 (H200, scripts/fold_sweep.py): the suite's real shapes and the sweep's 1D ones won
    assert auto_folds(8192, 16, 8, 4) and auto_folds(32, 2, 2, 0) and auto_folds(128, 2, 2, 0)
    assert auto_folds(16384, 8, 4, 2) and auto_folds(65536, 4, 2, 1)
    assert not auto_folds(16, 4, 2, 1)  # DCGAN's 16-wide lines: 17 rows' work for 16 (0.87x)
    assert not auto_folds(16384, 3, 2, 1, output_padding_w=1)  # 4/3 the MMAs (0.90x)
    assert not auto_folds(131072, 3, 2, 1, dilation_w=2)  # 2x the MMAs at C_in 512 (768 FLOPs per byte)


def test_auto_folds_light_gemms_whatever_their_extra_work():
    # run 166 (H200, TF32, forward alone): fam13 (k3 s5 d2, C_in 32: 5/3 the MMAs, ~9.7 FLOPs per output byte)
    # 1.61x, fam12 (1D k3 s2 d2, 2x, 48) 1.09x and fam10 (3D, 2x, 108) 1.12x folded
    assert 9 < _w_fold.tf32_flops_per_output_byte(_w_fold.plan(3, 5, 1, 2, 638), 32, [3, 3], [5, 5], 638) < 10.5
    assert auto_folds_nd(32, [64, 128], [3, 3], [5, 5], [1, 1], [2, 2])
    assert auto_folds_nd(32, [131072], [3], [2], [1], [2])
    assert auto_folds_nd(32, [16, 32, 32], [3, 3, 3], [2, 2, 2], [1, 1, 1], [2, 2, 2])
    # strides that divide no column tile, no extra work (2D k3 s3 1.04x, 1D k6 s3 1.26x, 2D k5 s5 1.89x)
    assert auto_folds_nd(64, [64, 128], [3, 3], [3, 3], [0, 0], [1, 1])
    assert auto_folds_nd(128, [16384], [6], [3], [1], [1])
    # DCGAN (0.89x) and 4/3 the MMAs at 144-256 FLOPs per byte (runs 39-40: 0.90-1.00x) stay on the phases
    assert not auto_folds_nd(512, [16, 16], [4, 4], [2, 2], [1, 1], [1, 1])
    assert not auto_folds_nd(64, [24, 24, 24], [3, 3, 3], [2, 2, 2], [1, 1, 1], [1, 1, 1], [1, 1, 1])
    assert not auto_folds_nd(128, [64, 64], [3, 3], [2, 2], [1, 1], [1, 1], [1, 1])
    # 3xTF32 counts its three MMAs: fam13 still folds, fam12 and fam10 do not
    assert auto_folds_nd(32, [64, 128], [3, 3], [5, 5], [1, 1], [2, 2], split_tf32=True)
    assert not auto_folds_nd(32, [131072], [3], [2], [1], [2], split_tf32=True)
    assert not auto_folds_nd(32, [16, 32, 32], [3, 3, 3], [2, 2, 2], [1, 1, 1], [2, 2, 2], split_tf32=True)


def test_no_fold_at_stride_one():
    assert _w_fold.plan(5, 1, 2, 1, 40) is None


def test_python_mirror_matches_the_cuda_source():
    csrc = Path(_w_fold.__file__).parent / "csrc"
    config = (csrc / "igemm_config.h").read_text()
    assert float(re.search(r"constexpr double kFoldMaxWorkRatio = ([\d.]+);", config).group(1)) == \
        _w_fold.AUTO_MAX_WORK_RATIO
    assert float(re.search(r"constexpr double kFoldMaxFlopsPerOutputByte = ([\d.]+);", config).group(1)) == \
        _w_fold.AUTO_MAX_FLOPS_PER_OUTPUT_BYTE
    text = (csrc / "conv_transpose_igemm.cu").read_text()
    # the same taps and rows formulas as fold_w / fold_taps
    assert "(a.kernel[2] - 1) * a.dilation[2] / a.stride[2] + 1" in text
    assert "(a.fold_out_w + a.fold_padding + s - 1) / s" in text


# grad_weight through the fold (grad_weight_fold_shape's shapes: s divides the W kernel at d = 1, T = 1 or kD = 1)
def random_weight_case(rng):
    while True:
        dims = rng.choice([1, 2, 3])
        groups = rng.choice([1, 1, 2])
        cin, cout = groups * rng.randint(1, 3), groups * rng.randint(1, 3)
        s = rng.choice([2, 4, 8])
        taps = 1 if dims == 3 else rng.randint(1, 3)
        kernel = [rng.randint(1, 3) for _ in range(dims - 1)] + [s * taps]
        stride = [rng.randint(1, 3) for _ in range(dims - 1)] + [s]
        dilation = [rng.randint(1, 2) for _ in range(dims - 1)] + [1]
        padding = [rng.randint(0, (k - 1) * d) for k, d in zip(kernel, dilation)]
        output_padding = [rng.randint(0, max(st, d) - 1) for st, d in zip(stride, dilation)]
        spatial = [rng.randint(1, 4) for _ in range(dims - 1)] + [rng.randint(1, 10)]
        if all(o > 0 for o in _args.output_size(spatial, kernel, stride, padding, output_padding, dilation)):
            return dims, rng.randint(1, 2), cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial


@pytest.mark.parametrize("seed", range(150))
def test_grad_weight_fold_matches_torch_random(seed):
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial = \
        random_weight_case(random.Random(seed))
    assert _w_fold.grad_weight_foldable(kernel, stride[-1], dilation[-1])
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(batch, cin, *spatial, dtype=torch.float64, generator=gen)
    w_shape = [cin, cout // groups, *kernel]
    out_shape = _args.output_shape(x.shape, w_shape, stride, padding, output_padding, dilation, groups)
    grad = torch.randn(out_shape, dtype=torch.float64, generator=gen)
    ref = torch.ops.aten.convolution_backward(grad, x, x.new_empty(w_shape), None, stride, padding, dilation, True,
                                              output_padding, groups, [False, True, False])[1]
    got = _w_fold.grad_weight(grad, x, w_shape, stride, padding, dilation, groups)
    torch.testing.assert_close(got, ref, atol=1e-10, rtol=1e-10)


@pytest.mark.parametrize("kernel,stride,dilation,foldable", [
    ([16], 8, 1, True), ([4, 4], 2, 1, True), ([2, 2, 2], 2, 1, True), ([2, 2, 4], 2, 1, False),  # 3D with T = 2
    ([3, 3], 2, 1, False), ([4], 2, 2, False), ([5], 1, 1, False), ([1, 4, 4], 2, 1, True),
])
def test_grad_weight_foldable_mirrors_the_cuda_rule(kernel, stride, dilation, foldable):
    assert _w_fold.grad_weight_foldable(kernel, stride, dilation) == foldable
