"""GPU correctness of tconv's CUDA kernels (skipped without CUDA).

Every result is compared with a float64 reference (torch on the GPU, upcast inputs) and, for the
modes where rounding is expected, with PyTorch's own result in the same precision, following the
precision contract (DESIGN.md section 3):
  fp32, TF32 off : allclose(atol=rtol=1e-4) vs float64 on every element
  fp32, TF32 on  : error vs float64 <= 2x PyTorch's TF32 error (+ an fp32-rounding floor)
  fp16 / bf16    : error vs float64 <= 2x PyTorch's error in that dtype (+ a rounding floor)
Error = max |x - ref| / max |ref| (a normalised max error; NaN fails).
"""
import contextlib
import json
import math
import os
import random
import re
import subprocess
import sys
import warnings
import zlib

import pytest
import torch
import torch.nn.functional as F

import tconv
from conftest import assert_bitwise_equal, cuda_ready, run_under_switch, unit_stride_flags, wgmma_kernels_run
from tconv.harness.compare import round_to_tf32 as _round_to_tf32

pytestmark = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU")

TORCH_FN = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
TCONV_FN = {1: tconv.conv_transpose1d, 2: tconv.conv_transpose2d, 3: tconv.conv_transpose3d}
# Rounding floor of the 2x rule, per dtype: a few units of the dtype's epsilon.
FLOOR = {torch.float32: 4e-6, torch.float16: 4e-3, torch.bfloat16: 3e-2}
MODES = ["fp32", "tf32", "fp16", "bf16"]


@contextlib.contextmanager
def precision(mode):
    """Sets torch's conv TF32 flag for the mode and restores it (both sides run under it)."""
    old = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = mode == "tf32"
    try:
        yield
    finally:
        torch.backends.cudnn.allow_tf32 = old


def dtype_of(mode):
    return {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[mode]


def rel_err(x, ref):
    if x.numel() == 0:
        return 0.0
    x = x.double()
    if not torch.isfinite(x).all():
        return float("inf")
    scale = ref.abs().max().item()
    return (x - ref).abs().max().item() / (scale if scale > 0 else 1.0)


def check_close(name, got, ref64, torch_same, mode, ideal_tf32=None):
    """ideal_tf32: float64 result on TF32-rounded operands. With TF32 allowed, cuDNN is free to use
    it but on small shapes often runs exact fp32 kernels; the bound is then 2x the error TF32
    itself implies (the larger of cuDNN's measured error and the ideal TF32 error)."""
    assert got.shape == ref64.shape, (name, got.shape, ref64.shape)
    if mode == "fp32":
        assert torch.isfinite(got).all(), f"{name}: non-finite values"
        torch.testing.assert_close(got.double(), ref64, atol=1e-4, rtol=1e-4, msg=lambda m: f"{name}: {m}")
        return
    ours, theirs = rel_err(got, ref64), rel_err(torch_same, ref64)
    if mode == "tf32" and ideal_tf32 is not None:
        theirs = max(theirs, rel_err(ideal_tf32, ref64))
    assert ours <= 2 * theirs + FLOOR[got.dtype], f"{name}: error {ours:.3g} vs torch {theirs:.3g} ({mode})"


def round_to_tf32(t):
    """TF32-rounded operand (ties away, like cvt.rna; the sm_90 kernels round ties to even), in float64 for the reference."""
    return _round_to_tf32(t.detach().float()).double()


def make_tensor(shape, dtype, layout, rng_gen):
    """A random tensor in the requested layout: contiguous, channels_last, a strided view or misaligned."""
    if layout == "strided":
        big = torch.randn([s * 2 if i == len(shape) - 1 else s for i, s in enumerate(shape)],
                          generator=rng_gen, device="cuda").to(dtype)
        return big[..., ::2]
    if layout == "row_padded":  # W contiguous, rows (and so every stride) padded to 16 bytes plus one more
        width, align = shape[-1], 16 // torch.empty(0, dtype=dtype).element_size()
        big = torch.randn([*shape[:-1], (width + align) // align * align + align], generator=rng_gen,
                          device="cuda").to(dtype)
        return big[..., :width]
    if layout == "misaligned":  # contiguous, but one element past the allocation's alignment
        return torch.randn(math.prod(shape) + 1, generator=rng_gen, device="cuda").to(dtype)[1:].view(shape)
    if layout == "channels_last_misaligned":  # channels innermost, one element past the allocation's alignment
        inner = [shape[0], *shape[2:], shape[1]]
        flat = torch.randn(math.prod(shape) + 1, generator=rng_gen, device="cuda").to(dtype)[1:]
        return flat.view(inner).permute(0, len(shape) - 1, *range(1, len(shape) - 1))
    t = torch.randn(shape, generator=rng_gen, device="cuda").to(dtype)
    if layout == "channels_last" and t.dim() in (4, 5):
        t = t.contiguous(memory_format=torch.channels_last if t.dim() == 4 else torch.channels_last_3d)
    return t


def run_case(dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias,
             mode, layout, seed, poison=None, algorithm="auto", grad_like_output=False):
    """grad_like_output: grad_output in the output's memory format (as autograd hands a channels_last output's
    gradient on), else contiguous."""
    with tconv._ops.use_algorithm(algorithm):
        _run_case(dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias,
                  mode, layout, seed, poison, grad_like_output)


def _run_case(dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias,
              mode, layout, seed, poison, grad_like_output=False):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    dtype = dtype_of(mode)
    x = make_tensor([batch, cin, *spatial], dtype, layout, gen).requires_grad_()
    w_layout = "contiguous" if layout in ("strided", "row_padded", "channels_last_misaligned") else layout
    w = make_tensor([cin, cout // groups, *kernel], dtype, w_layout, gen).requires_grad_()
    b = torch.randn(cout, generator=gen, device="cuda").to(dtype).requires_grad_() if bias else None
    args = (stride, padding, output_padding, groups, dilation)
    leaves = [t for t in (x, w, b) if t is not None]
    with precision(mode):
        if poison:
            poison()
        out = TCONV_FN[dims](x, w, b, *args)
        grad = torch.randn(out.shape, generator=gen, device="cuda").to(dtype)
        if grad_like_output:
            grad = grad.contiguous(memory_format=tconv._args.memory_format_of(out))
        if poison:
            poison()
        ours = torch.autograd.grad(out, leaves, grad)
        # torch's same-precision reference on an aligned copy of a misaligned channels-last x: run 568 (H100, cuDNN
        # 9.19) had cuDNN's wgrad read it 16 bytes at a time (misaligned address) or find no engine for it
        x_same = x.detach().clone(memory_format=tconv._args.memory_format_of(x)).requires_grad_() \
            if layout == "channels_last_misaligned" else x
        leaves_same = [x_same if t is x else t for t in leaves]
        ref_same = TORCH_FN[dims](x_same, w, b, *args)
        theirs = torch.autograd.grad(ref_same, leaves_same, grad)
    leaves64 = [t.detach().double().requires_grad_() for t in leaves]
    x64, w64 = leaves64[0], leaves64[1]
    b64 = leaves64[2] if b is not None else None
    ref64 = TORCH_FN[dims](x64, w64, b64, *args)
    grads64 = torch.autograd.grad(ref64, leaves64, grad.double())
    ideal = [None] * 4
    if mode == "tf32":  # float64 on TF32-rounded operands, for the output and every gradient
        rx, rw = round_to_tf32(x.detach()).requires_grad_(), round_to_tf32(w.detach()).requires_grad_()
        out_tf32 = TORCH_FN[dims](rx, rw, b64.detach() if b64 is not None else None, *args)
        gi, gw = torch.autograd.grad(out_tf32, [rx, rw], round_to_tf32(grad))
        ideal = [out_tf32.detach(), gi, gw, None]
    check_close("output", out, ref64.detach(), ref_same.detach(), mode, ideal[0])
    fmt = tconv._args.memory_format_of(x)
    if fmt != torch.contiguous_format:  # an unambiguously channels_last input keeps its format
        assert out.is_contiguous(memory_format=fmt), "output should keep the input's channels_last format"
    for name, g, g_same, g64, g_ideal in zip(["grad_input", "grad_weight", "grad_bias"], ours, theirs, grads64,
                                             ideal[1:]):
        check_close(name, g, g64, g_same, mode, g_ideal)


# Hand-picked grid: the semantic corners (stride > kernel, dilation with output_padding >= stride,
# groups, asymmetric everything, 1x1 kernels, single pixels, empty batch).
GRID = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (1, 2, 4, 6, 1, [3], [1], [0], [0], [1], [9], True),
    (1, 3, 6, 4, 2, [5], [3], [2], [1], [2], [7], False),
    (1, 1, 3, 3, 3, [4], [2], [1], [1], [1], [5], True),
    (2, 2, 4, 6, 2, [3, 3], [2, 2], [1, 1], [1, 1], [1, 1], [5, 6], True),
    (2, 1, 3, 5, 1, [3, 5], [2, 3], [1, 2], [0, 2], [2, 1], [4, 7], False),
    (2, 2, 8, 8, 4, [1, 1], [1, 1], [0, 0], [0, 0], [1, 1], [3, 3], True),
    (2, 1, 2, 2, 1, [2, 2], [4, 4], [0, 0], [3, 1], [1, 1], [1, 1], True),
    (2, 2, 4, 4, 1, [3, 3], [1, 1], [0, 0], [1, 1], [2, 2], [4, 5], False),
    (3, 2, 4, 6, 2, [3, 5, 7], [2, 2, 2], [1, 2, 3], [1, 1, 1], [1, 1, 1], [3, 4, 5], True),
    (3, 1, 3, 2, 1, [2, 2, 2], [2, 2, 2], [0, 0, 0], [0, 0, 0], [1, 1, 1], [3, 3, 3], True),
    (3, 2, 4, 8, 4, [3, 3, 3], [1, 2, 3], [1, 0, 2], [0, 1, 2], [2, 1, 1], [3, 2, 4], False),
    (3, 0, 4, 6, 2, [3, 3, 3], [2, 2, 2], [1, 1, 1], [1, 1, 1], [1, 1, 1], [3, 3, 3], True),
    (2, 2, 16, 24, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [9, 11], True),
    (2, 2, 20, 12, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [7, 5], False),
    # several GEMM tiles along M, N (> 64 channels) and K (channels not a multiple of 16)
    (2, 2, 40, 72, 1, [3, 3], [2, 2], [1, 1], [1, 1], [1, 1], [13, 17], True),
    (3, 2, 24, 140, 2, [3, 3, 3], [1, 2, 1], [1, 1, 0], [0, 1, 0], [1, 1, 2], [5, 6, 7], True),
    (1, 3, 36, 20, 1, [16], [8], [4], [0], [1], [40], True),
    (2, 1, 18, 10, 1, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], [30, 25], True),
    # grad_weight's W tap groups: 5 taps at stride 1 (3 + 2), 7 dilated taps over 64 input channels
    # (two warps along M), W not a multiple of the 16-position chunk
    (1, 2, 48, 40, 1, [5], [1], [2], [0], [1], [50], True),
    (2, 2, 64, 36, 1, [3, 7], [1, 1], [1, 3], [0, 0], [1, 2], [6, 37], False),
    # the gather GEMMs' W-tap window: span 24 (the largest it takes) over several M tiles, 40 input
    # channels (a partial chunk) and 72 output channels; W stride 2 (forward phases of 3 and 2 W taps,
    # grad_input without the window) with 136 channels (the 128-column tile and a partial one); 3D with
    # W dilation 2; span 25 (no window anywhere)
    (1, 2, 40, 72, 1, [7], [1], [3], [0], [4], [150], True),
    (2, 2, 48, 136, 1, [3, 5], [1, 2], [1, 2], [0, 1], [1, 1], [9, 70], False),
    (3, 2, 33, 40, 1, [2, 3, 5], [1, 1, 1], [0, 1, 2], [0, 0, 0], [1, 1, 2], [3, 4, 37], True),
    (1, 1, 8, 8, 1, [6], [1], [0], [0], [5], [60], False),
    # 3D with 72 input channels: grad_weight's 64-wide C_in tile with W groups of 3 (the wgmma kernel on
    # Hopper, which takes 3D kernels only) and a second, partial C_in tile
    (3, 2, 72, 40, 1, [3, 3, 3], [1, 1, 1], [1, 1, 1], [0, 0, 0], [1, 1, 1], [4, 5, 9], True),
    # grad_input's phase split: HiFi-GAN's k16 s8 p4 over several M tiles with 72 input channels; DCGAN's
    # k4 s2 p1 with 136 input channels; one residue class (d = s = 2) with a trailing zero tap; W stride 3
    # with groups and H stride 2
    (1, 2, 72, 40, 1, [16], [8], [4], [0], [1], [150], True),
    (2, 2, 136, 24, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [6, 33], False),
    (1, 2, 24, 40, 1, [3], [2], [1], [1], [2], [170], True),
    (2, 2, 36, 24, 3, [3, 5], [2, 3], [1, 2], [1, 1], [1, 2], [5, 40], True),
    # the forward's W fold: stride 16 over 24 output channels (384 columns: the 128-wide tile, 8 channels per
    # column tile), padding beyond a stride; U-Net's k2 s2 in 3D with 200 columns (a partial column tile);
    # k3 s4 d3 (taps in 3 of 4 columns) with output_padding and groups
    (1, 2, 40, 24, 1, [32], [16], [20], [3], [1], [30], True),
    (3, 2, 36, 100, 1, [2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 0, 1], [1, 1, 1], [3, 4, 37], True),
    (2, 2, 24, 48, 2, [3, 3], [2, 4], [1, 2], [1, 2], [1, 3], [5, 33], False),
    # grad_weight's W groups with C_in/group <= 32 around the many-tap tile (TF32 and fp16/bf16, up to 6 taps,
    # shifts up to 8): 7 taps at stride 1 (4 + 3 on the 32 x 32 tiles) with a partial C_out tile; 5 taps (one
    # many-tap group) with two C_out tiles; W stride 2 with 9 taps (residue classes of 5 and 4) and groups; W
    # dilation 5 (shifts of 5 in one group); k16 s2, which the W fold turns into 8 stride-1 taps (4 + 4)
    (1, 2, 24, 40, 1, [7], [1], [3], [0], [1], [50], True),
    (2, 2, 32, 72, 1, [3, 5], [1, 1], [1, 2], [0, 0], [1, 1], [7, 37], False),
    (3, 2, 16, 24, 2, [2, 3, 9], [1, 1, 2], [0, 1, 4], [0, 0, 1], [1, 1, 1], [3, 4, 21], True),
    (1, 2, 12, 20, 1, [3], [1], [5], [0], [5], [45], False),
    (1, 2, 16, 12, 1, [16], [2], [7], [1], [1], [40], True),
]


# "auto" takes the tensor-core implicit GEMMs wherever they apply (fp32/fp16/bf16); "direct" forces
# the gather kernels, so both branches of the heuristic run on every case.
ALGORITHMS = ["auto", "direct"]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("layout", ["contiguous", "channels_last", "strided"])
@pytest.mark.parametrize("case", GRID, ids=[f"g{i}" for i in range(len(GRID))])
def test_grid(case, layout, mode, algorithm, poison_allocator):
    run_case(*case, mode=mode, layout=layout, seed=zlib.crc32(f"{case}{layout}{mode}".encode()) % 10000,
             poison=poison_allocator, algorithm=algorithm)


# Channels-last inputs whose grad_output is channels-last too (as autograd hands on a channels_last output's
# gradient): with both channels-innermost the mma.sync grad_weight's copies run along the channels ("igemm_mma"
# keeps it; "auto" and "igemm" take what the heuristics pick), and the TMA gather's epilogue writes channels-last
# outputs along the channels. Every 2-D and 3-D case.
CHANNELS_LAST_GRID = [case for case in GRID if case[0] in (2, 3)]


@pytest.mark.parametrize("algorithm", ["auto", "igemm", "igemm_mma"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CHANNELS_LAST_GRID, ids=[f"c{i}" for i in range(len(CHANNELS_LAST_GRID))])
def test_grid_channels_last_grads(case, mode, algorithm, poison_allocator):
    run_case(*case, mode=mode, layout="channels_last", seed=zlib.crc32(f"{case}{mode}cl".encode()) % 10000,
             poison=poison_allocator, algorithm=algorithm, grad_like_output=True)


# "igemm" takes the Hopper wgmma kernels for TF32-mode work where the device has them, "igemm_mma"
# keeps the mma.sync ones (the sm_80 path); "igemm_window" takes the W-tap window wherever it is
# possible (the small shapes here are below auto's threshold), "igemm_nowindow" never;
# "igemm_phase_split" runs grad_input at W stride > 1 on the split view (tconv/_phase_split.py) where
# it applies (g1, g3, g4, g13, g14, g16, g17, g21, g25-g28); "igemm_fold" runs the forward at W stride > 1
# with the W phases as GEMM columns (tconv/_w_fold.py),
# "igemm_nofold" never: all run on every case.
@pytest.mark.parametrize("algorithm", ["igemm", "igemm_mma", "igemm_window", "igemm_nowindow", "igemm_phase_split",
                                       "igemm_fold", "igemm_nofold"])
@pytest.mark.parametrize("mode", MODES)  # fp16/bf16: native k16 MMAs on channel pairs
@pytest.mark.parametrize("case", GRID, ids=[f"g{i}" for i in range(len(GRID))])
def test_grid_forced_igemm(case, mode, algorithm, poison_allocator):
    layout = "channels_last" if mode in ("fp16", "bf16") else "contiguous"
    run_case(*case, mode=mode, layout=layout, seed=7, poison=poison_allocator, algorithm=algorithm)


# The W fold at strides that divide no column tile (store_folded_tile with partial channels per tile): the
# columns C_out/g x s cross 64- and 128-column tile boundaries mid-channel; groups, bias, odd W, output padding
# and dilation as fam13 (k3 s5 d2, where "auto" folds for the light GEMM). Forced and "auto", every layout.
FOLD_ANY_STRIDE_GRID = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (2, 2, 32, 64, 1, [3, 3], [5, 5], [1, 1], [0, 0], [2, 2], [6, 27], True),
    (2, 2, 16, 54, 2, [3, 3], [3, 3], [0, 1], [1, 2], [1, 1], [5, 13], True),
    (1, 3, 24, 40, 1, [6], [3], [1], [0], [1], [45], False),
    (1, 2, 8, 30, 1, [5], [7], [2], [3], [1], [19], True),
    (3, 1, 16, 26, 1, [2, 3, 5], [1, 2, 5], [0, 1, 2], [0, 1, 4], [1, 1, 1], [3, 4, 9], True),
]


@pytest.mark.parametrize("algorithm", ["auto", "igemm_fold", "igemm_mma"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("layout", ["contiguous", "channels_last", "strided"])
@pytest.mark.parametrize("case", FOLD_ANY_STRIDE_GRID, ids=[f"f{i}" for i in range(len(FOLD_ANY_STRIDE_GRID))])
def test_fold_any_stride(case, layout, mode, algorithm, poison_allocator):
    run_case(*case, mode=mode, layout=layout, seed=zlib.crc32(f"{case}{layout}{mode}f".encode()) % 10000,
             poison=poison_allocator, algorithm=algorithm)


# The wgmma grad_weight's packed taps (tconv_igemm_grad_weight_wgmma_kernel, Hopper; 3D, more than 32 input
# channels per group, W groups of 2-4 taps): where a group's C_out channels times the taps of its largest W group fit
# in fewer m64 blocks than taps, the taps' channels are stacked as rows. fam07's 3 taps x 24 channels (two blocks);
# 4 + 3 taps x 8 channels with groups, a partial C_in tile and bias (one block); 4 taps x 40 channels over two C_in
# tiles (three blocks); 4 taps x 20 (two); 2 dilated taps x 30 (one) with a batch of 3 and W not a multiple of 16.
PACKED_TAPS_GRID = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (3, 2, 48, 24, 1, [3, 3, 3], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [4, 5, 19], False),
    (3, 2, 80, 16, 2, [2, 2, 7], [1, 1, 1], [0, 1, 3], [0, 0, 0], [1, 1, 1], [3, 4, 21], True),
    (3, 1, 72, 40, 1, [2, 1, 4], [1, 1, 1], [0, 0, 1], [0, 0, 0], [1, 1, 1], [3, 3, 30], True),
    (3, 2, 36, 20, 1, [2, 1, 4], [1, 1, 1], [1, 0, 2], [0, 0, 0], [1, 1, 1], [4, 3, 25], False),
    (3, 3, 40, 30, 1, [2, 2, 2], [1, 1, 1], [1, 0, 1], [0, 0, 0], [1, 1, 2], [3, 5, 37], True),
]


@pytest.mark.parametrize("algorithm", ["auto", "igemm", "igemm_mma"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("layout", ["contiguous", "channels_last", "strided"])
@pytest.mark.parametrize("case", PACKED_TAPS_GRID, ids=[f"k{i}" for i in range(len(PACKED_TAPS_GRID))])
def test_grad_weight_packed_taps(case, layout, mode, algorithm, poison_allocator):
    run_case(*case, mode=mode, layout=layout, seed=zlib.crc32(f"{case}{layout}{mode}k".encode()) % 10000,
             poison=poison_allocator, algorithm=algorithm)


def grad_weight_kernel_names(prof):
    """The grad_weight kernels a profiler saw launch."""
    return [e.name for e in prof.events() if "grad_weight" in e.name]


# TCONV_GRAD_WEIGHT_TF32_MMA_SYNC=0 keeps fp32 data on the wgmma grad_weight kernel at 64-wide C_in tiles too.
TF32_MMA_SYNC = os.environ.get("TCONV_GRAD_WEIGHT_TF32_MMA_SYNC", "1") not in ("", "0")


def test_grad_weight_packed_taps_where_planned():
    """On Hopper in TF32 mode fam07's channels (48 -> 24, k3) run grad_weight as the packed wgmma kernel with two
    m64 blocks for its three taps; 48 -> 64 channels keep one block per tap; both on the 48-wide C_in tile. 56 and
    64 input channels (64-wide C_in tiles, L2-61's 64 -> 128) take the mma.sync kernel (grad_weight_keeps_wgmma;
    with TCONV_GRAD_WEIGHT_TF32_MMA_SYNC=0 the wgmma kernel, 56 packed in two blocks), as does exact fp32."""
    if not wgmma_kernels_run():
        pytest.skip("the wgmma kernels run on sm_90a builds on compute capability 9.0")

    def grad_weight_kernels(cout, mode, cin=48):
        x = torch.randn(2, cin, 4, 5, 19, device="cuda")
        w = torch.randn(cin, cout, 3, 3, 3, device="cuda", requires_grad=True)
        with precision(mode), tconv._ops.use_algorithm("auto"), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = tconv.conv_transpose3d(x, w)
            out.backward(torch.randn_like(out))
            torch.cuda.synchronize()
        return grad_weight_kernel_names(prof)
    names = grad_weight_kernels(24, "tf32")
    assert any("grad_weight_wgmma_kernel<float, 2, 3, 2, 48>" in n for n in names), names
    names = grad_weight_kernels(64, "tf32")
    assert any("grad_weight_wgmma_kernel<float, 2, 3, 3, 48>" in n for n in names), names
    names = grad_weight_kernels(24, "tf32", cin=56)
    if TF32_MMA_SYNC:
        mma_sync_calls = [names, grad_weight_kernels(128, "tf32", cin=64)]
    else:
        assert any("grad_weight_wgmma_kernel<float, 2, 3, 2, 64>" in n for n in names), names
        mma_sync_calls = []
    for names in mma_sync_calls + [grad_weight_kernels(24, "fp32")]:
        assert any("grad_weight_tf32_kernel<float" in n for n in names), names
        assert not any("wgmma" in n for n in names), names


# The rows grad_weight kernels (tconv_igemm_grad_weight_wgmma_rows[_specialized]_kernel, Hopper, fp32 data in TF32
# mode): 2D, W stride 2 with kernel W 4 or 2 (the W fold), an even kH, >= 128 input channels per group, tensors a TMA
# tensor map takes (W-contiguous, strides of whole 16 bytes). DCGAN's k4 s2 p1 (one 128-channel C_in tile); a partial C_in
# tile, a partial C_out tile and W over two 16-position chunks; groups with H dilation 2, kernel W 2 (one folded
# tap) and output padding; W padding 3; odd W sizes (W_in 9, W_out 19: the boxes' zero fill at both W ends).
# The other modes and the misaligned layout (not taken) check that the other plans size the workspace they use.
ROWS_GRID = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (2, 2, 128, 64, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [5, 8], True),
    (2, 3, 160, 40, 1, [2, 4], [1, 2], [0, 1], [0, 0], [1, 1], [3, 20], False),
    (2, 2, 256, 48, 2, [4, 2], [2, 2], [1, 0], [1, 0], [2, 1], [4, 12], True),
    (2, 1, 136, 24, 1, [2, 4], [2, 2], [0, 3], [0, 0], [1, 1], [3, 12], False),
    (2, 2, 128, 32, 1, [4, 4], [2, 2], [1, 1], [0, 1], [1, 1], [4, 9], True),
]


@pytest.mark.parametrize("algorithm", ["auto", "igemm", "igemm_fold"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("layout", ["contiguous", "misaligned", "channels_last", "strided"])
@pytest.mark.parametrize("case", ROWS_GRID, ids=[f"r{i}" for i in range(len(ROWS_GRID))])
def test_grad_weight_rows(case, layout, mode, algorithm, poison_allocator):
    run_case(*case, mode=mode, layout=layout, seed=zlib.crc32(f"{case}{layout}{mode}r".encode()) % 10000,
             poison=poison_allocator, algorithm=algorithm)


def test_grad_weight_rows_where_planned():
    """On Hopper in TF32 mode DCGAN's k4 s2 (C_in 128) runs grad_weight as the rows kernel with two folded taps, k2 s2
    with one; exact fp32, 64 input channels and an input whose W is not contiguous do not take it."""
    if not wgmma_kernels_run():
        pytest.skip("the wgmma kernels run on sm_90a builds on compute capability 9.0")

    def grad_weight_kernels(kernel, mode="tf32", cin=128, w_contiguous=True):
        x = torch.randn(2, cin, 5, 8, device="cuda")
        if not w_contiguous:
            x = torch.randn(2, cin, 5, 16, device="cuda")[..., ::2]
        w = torch.randn(cin, 32, kernel, kernel, device="cuda", requires_grad=True)
        with precision(mode), tconv._ops.use_algorithm("auto"), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = tconv.conv_transpose2d(x, w, stride=2, padding=kernel // 2 - 1)
            out.backward(torch.randn_like(out))
            torch.cuda.synchronize()
        return grad_weight_kernel_names(prof)
    # Either form: tconv_igemm_grad_weight_wgmma_rows_kernel or ..._rows_specialized_kernel (the default).
    names = grad_weight_kernels(4)
    assert any(re.search(r"grad_weight_wgmma_rows_(specialized_)?kernel<2, 2,", n) for n in names), names
    names = grad_weight_kernels(2)
    assert any(re.search(r"grad_weight_wgmma_rows_(specialized_)?kernel<2, 1,", n) for n in names), names
    for names in (grad_weight_kernels(4, "fp32"), grad_weight_kernels(4, cin=64),
                  grad_weight_kernels(4, w_contiguous=False)):
        assert names and not any("rows_kernel" in n for n in names), names


# The shifted-x grad_weight kernel (tconv_igemm_grad_weight_wgmma_shifted_x_kernel, Hopper, fp32 data in TF32 mode and
# fp16/bf16 data): W stride and dilation 1, >= 16 input and output channels per group (C_in in tiles of 32, kernel W in
# groups of up to 5 taps; before TCONV_GRAD_WEIGHT_SHIFTED_X_WIDE: kernel W 1-5, 16-32 input and >= 32 output channels
# per group; fp32 data of 3D kernels with > 32 input channels per group keep the wgmma or mma.sync kernel), and tensors
# a TMA tensor map can describe: W contiguous, every other stride a multiple of 16 bytes (x always; grad_output too, or
# through the flat map, D x H x W as one dimension, whose channel stride must be: s7-s9, and s12 in 16-bit; not with
# TCONV_GRAD_WEIGHT_SHIFTED_X_FLAT_DY=0; a 16-bit grad_output that neither map takes has its rows copied in 4-byte
# pieces where W_out is even: s9, s18, s19, not with TCONV_GRAD_WEIGHT_SHIFTED_X_COPY_DY=0). x's rows are multiples of
# 16 bytes in "contiguous" where W is a multiple of 4 (fp32) or 8 (16-bit) elements, and always in "row_padded"; rows
# off 16 bytes take the flat x map where the W padding is at least kernel W - 1 and the channel stride allows (s3 and
# s12 in 16-bit, s11-s13 in TF32: their windows reach into the neighbouring rows). K runs
# over grad_output W chunks of 16 and B is shifted copies of the x window (four, or in 16-bit one per tap), so the cases
# cover every kernel width (a tap pair, two pairs, an odd last tap, one tap), the window's alignment offsets e = (W
# padding - 4) mod 4 (fp32) and mod 8 (16-bit: s10-s13 give 0-3, the rest 4-7), a last W chunk only partly inside the
# grad_output, flattened (kd, kh) row tiles that span two kd or end past the last row, partial C_in and C_out tiles, two
# C_out tiles, groups, D/H strides, dilation and output padding; W tap groups (kernel W 7 as 4 + 4, 6 as 3 + 3), two
# C_in tiles, a partial second C_in tile whose window reads the next group's channels, and 16 output channels per group
# (s14-s17). L1-68's k3x5x5 (C 32 -> 64) is s0's shape on a smaller input.
SHIFTED_X_GRID = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (3, 2, 32, 64, 1, [3, 5, 5], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [4, 6, 20], False),    # e 0, W_out 24
    (2, 2, 24, 40, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [5, 16], True),                       # e 1, W_out 16
    (3, 2, 64, 64, 2, [2, 3, 4], [2, 2, 1], [1, 0, 2], [1, 1, 0], [1, 2, 1], [3, 4, 17], True),     # e 2, W_out 16
    (2, 3, 16, 96, 1, [4, 3], [1, 1], [2, 3], [0, 0], [1, 1], [6, 36], False),                      # e 3, W_out 32
    (3, 1, 32, 64, 1, [3, 3, 1], [1, 1, 1], [1, 1, 0], [0, 0, 0], [1, 1, 1], [3, 4, 40], False),    # e 0, W_out 40
    (2, 2, 32, 32, 1, [5, 2], [1, 1], [0, 1], [0, 0], [2, 1], [7, 17], True),                       # e 1, W_out 16
    (2, 2, 32, 64, 1, [3, 5], [1, 1], [1, 2], [0, 0], [1, 1], [6, 24], False),                      # e 2, W_out 24
    # grad_output rows of no multiple of 16 bytes: L1-71's shape on a small input (8 x 18 = 144 per channel), 3D with
    # grad_output rows outside D (4 x 7 x 22 = 616), and 7 x 18 = 126 per channel (no map, flat or not; 16-bit rows
    # are copied)
    (2, 2, 32, 32, 1, [3, 3], [1, 1], [0, 0], [0, 0], [1, 1], [6, 16], True),                       # e 0, W_out 18
    (3, 2, 32, 64, 1, [3, 3, 5], [1, 1, 1], [1, 0, 1], [0, 0, 0], [1, 1, 1], [4, 5, 20], False),    # e 1, W_out 22
    (2, 1, 32, 32, 1, [3, 3], [1, 1], [0, 0], [0, 0], [1, 1], [5, 16], False),                      # e 0, W_out 18
    # W padding 4-7 (16-bit e 0-3; fp32 e 0-3 again), W_out 32, 32, 36 (16-bit: the flat map) and 40
    (2, 2, 32, 64, 1, [3, 5], [1, 1], [1, 4], [0, 0], [1, 1], [5, 36], False),                      # e 0, W_out 32
    (2, 2, 16, 48, 1, [2, 4], [1, 1], [0, 5], [0, 0], [1, 1], [4, 39], True),                       # e 1, W_out 32
    (3, 1, 32, 32, 1, [2, 2, 3], [1, 1, 1], [0, 1, 6], [0, 0, 0], [1, 1, 1], [3, 4, 46], False),    # e 2, W_out 36
    (2, 2, 32, 40, 1, [3, 4], [1, 1], [1, 7], [0, 0], [1, 1], [4, 51], True),                       # e 3, W_out 40
    # W tap groups, C_in tiles and narrow C_out: fam05's k3x7 (C 64 -> 64), groups of 48 -> 16 channels with kernel W
    # 6, fam02's k3x5x7 (C 32 -> 16), and a 2D k3 with 96 -> 32 channels (three C_in tiles)
    (2, 2, 64, 48, 1, [3, 7], [1, 1], [1, 3], [0, 0], [1, 1], [5, 24], False),                      # W_out 24
    (3, 2, 96, 32, 2, [2, 3, 6], [1, 1, 1], [0, 1, 2], [0, 0, 0], [1, 1, 1], [3, 4, 16], True),     # W_out 17
    (3, 1, 32, 16, 1, [3, 5, 7], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [4, 6, 24], False),    # W_out 30
    (2, 2, 96, 32, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [6, 24], True),                       # W_out 24
    # 16-bit grad_output rows that no map takes (W_out 10: 20 bytes; 3 x 5 x 10 = 150 per channel, no flat map either),
    # copied by the producer warp (TCONV_GRAD_WEIGHT_SHIFTED_X_COPY_DY), with rows outside D and H
    (3, 2, 32, 64, 1, [3, 3, 3], [1, 1, 1], [1, 1, 1], [0, 0, 0], [1, 1, 1], [3, 5, 10], True),     # W_out 10
    # copied rows in groups whose 48 output channels leave the C_out tile reading the next group's (W_out 18: 36 bytes,
    # 7 x 18 = 126 per channel), and kernel W 9 as 5 + 5 taps (the tenth not stored) over two (kd, kh) rows
    (2, 2, 64, 96, 2, [3, 3], [1, 1], [0, 0], [0, 0], [1, 1], [5, 16], True),                       # W_out 18
    (2, 2, 32, 32, 1, [2, 9], [1, 1], [0, 4], [0, 0], [1, 1], [4, 24], False),                      # W_out 24
]
SHIFTED_X_FLAT_DY = os.environ.get("TCONV_GRAD_WEIGHT_SHIFTED_X_FLAT_DY", "1") not in ("", "0")


SHIFTED_X_16BIT = os.environ.get("TCONV_GRAD_WEIGHT_SHIFTED_X_16BIT", "1") not in ("", "0")
SHIFTED_X_WIDE = os.environ.get("TCONV_GRAD_WEIGHT_SHIFTED_X_WIDE", "1") not in ("", "0")
SHIFTED_X_COPY_DY = os.environ.get("TCONV_GRAD_WEIGHT_SHIFTED_X_COPY_DY", "1") not in ("", "0")
# TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS: 0 never takes the channel-tile form, 1 for fp32 data only, else every type
SHIFTED_X_CHANNEL_TILES = os.environ.get("TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS", "") != "0"
SHIFTED_X_CHANNEL_TILES_16BIT = os.environ.get("TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS", "") not in ("0", "1")


def shifted_x_taps(kernel_w):
    """The shifted-x kernel's taps per block (its template's kKernelW): kernel W in the fewest equal groups of <= 5."""
    groups = -(-kernel_w // 5)
    return -(-kernel_w // groups)


def shifted_x_channels_taken(dims, cin_g, cout_g, kernel_w, mode, rows=3):
    """Whether the shifted-x kernel takes a group's channels and kernel W (TCONV_GRAD_WEIGHT_SHIFTED_X_WIDE); fp32 data
    of 3D kernels with more than 32 input channels per group keep the wgmma kernel (the mma.sync one at 64-wide C_in
    tiles), and so do kernels of one (kd, kh) row, but with more than 64 output channels per group (the channel-tile
    form, unless TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=0, or =1 for 16-bit data)."""
    one_row_taken = cout_g > 64 and (SHIFTED_X_CHANNEL_TILES if mode == "tf32" else SHIFTED_X_CHANNEL_TILES_16BIT)
    if cin_g < 16 or cout_g < 16 or (mode == "tf32" and dims == 3 and cin_g > 32 and kernel_w > 1) or \
            (rows < 2 and not one_row_taken):
        return False
    return SHIFTED_X_WIDE or (kernel_w <= 5 and cin_g <= 32 and cout_g >= 32)
# The kernel's grad_output positions per unit: forced by TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT=16 / 32 (the run scripts run
# these tests once each way), or 48 for 16-bit data only (fp32 keeps the plan's rule), else the plan's rule (16 or 32
# for fp32, 32 or 48 for 16-bit data; test_grad_weight_shifted_x_where_planned checks which).
SHIFTED_X_UNIT_FORCED = os.environ.get("TCONV_GRAD_WEIGHT_SHIFTED_X_UNIT", "")
if SHIFTED_X_UNIT_FORCED not in ("16", "32", "48"):
    SHIFTED_X_UNIT_FORCED = ""


def shifted_x_unit_pattern(data):
    """The unit a shifted-x kernel on `data` (its template's C++ type) runs with, as a regular expression."""
    if SHIFTED_X_UNIT_FORCED == "48":
        return r"(16|32)" if data == "float" else "48"
    return SHIFTED_X_UNIT_FORCED or (r"(16|32)" if data == "float" else r"(32|48)")


def shifted_x_kernel_ran(names, data, kernel_w):
    """Whether a shifted-x kernel on `data` (its template's C++ type) with kernel_w W taps is among `names`: the
    measured or lean one, or for fp32 data the narrow, channel-tile or ring one (their templates name no type), or for
    16-bit data the channel-tile one (at a unit of 32 whatever the unit switch says)."""
    taps = shifted_x_taps(kernel_w)
    unit = shifted_x_unit_pattern(data)
    pattern = re.compile(rf"grad_weight_wgmma_shifted_x(?:_lean)?_kernel<{re.escape(data)}, {unit}, {taps}>")
    ring = rf"|grad_weight_wgmma_shifted_x_ring(?:_overlap)?_kernel<{taps}>" if re.fullmatch(unit, "32") else ""
    fp32_forms = re.compile(rf"grad_weight_wgmma_shifted_x_(?:narrow|channels)_kernel<{unit}, {taps}>{ring}")
    channels16 = re.compile(rf"grad_weight_wgmma_shifted_x_channels16_kernel<{re.escape(data)}, 32, {taps}>")
    return any(pattern.search(n) or (data == "float" and fp32_forms.search(n)) or channels16.search(n) for n in names)


def shifted_x_maps(case, layout, mode):
    """Whether the shifted-x kernel's tensor maps take the case's tensors in `layout` (grad_output contiguous)."""
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias = case
    out = [(i - 1) * s - 2 * p + d * (k - 1) + op + 1
           for i, s, p, d, k, op in zip(spatial, stride, padding, dilation, kernel, output_padding)]
    align = 4 if mode == "tf32" else 8  # elements per 16 bytes
    # x rows off 16 bytes take the flat map where no stored tap reads past a row (W padding >= kernel W - 1)
    x_flat = padding[-1] >= kernel[-1] - 1 and math.prod(spatial) % align == 0
    x_maps = layout == "row_padded" or (layout == "contiguous" and (spatial[-1] % align == 0 or x_flat))
    dy_maps = out[-1] % align == 0 or (SHIFTED_X_FLAT_DY and math.prod(out) % align == 0)
    dy_copied = mode != "tf32" and SHIFTED_X_COPY_DY and out[-1] % 2 == 0  # 16-bit: 4-byte pieces of the rows
    return x_maps and (dy_maps or dy_copied)


def swap_admits(case):
    """Whether "auto" may run the case's grad_weight swapped (grad_weight_swaps: groups 1, stride 1, every padding
    within d (K - 1), no output padding; the swapped way takes the shifted-x kernel, which needs two or more (kd, kh)
    rows), unless TCONV_GRAD_WEIGHT_SWAP=0."""
    dims, _, _, _, groups, kernel, stride, padding, output_padding, dilation = case[:10]
    if os.environ.get("TCONV_GRAD_WEIGHT_SWAP", "") == "0":
        return False
    return (math.prod(kernel[:-1]) > 1 and groups == 1 and all(s == 1 for s in stride) and not any(output_padding)
            and all(p <= d * (k - 1) for p, d, k in zip(padding, dilation, kernel)))


# The unit-stride grad_weight's two kernels: mma.sync, and wgmma on Hopper (TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=1).
UNIT_STRIDE_GRAD_WEIGHT_KERNELS = ("unit_stride_mma_grad_weight_kernel", "unit_stride_wgmma_grad_weight_kernel",
                                   "unit_stride_wgmma_grad_weight_specialized_kernel")


def unit_stride_mma_grad_weight_rule_admits(case, mode):
    """Whether "auto" may give the case's grad_weight to the unit-stride mma.sync kernel (UnitStrideMmaGradWeightAutoRule
    in csrc/igemm_config.h, with the kernel's own conditions: stride 1, groups 1, kernel D 1, C_in a multiple of 32)."""
    dims, _, cin, cout, groups, kernel, stride = case[:7]
    switch = os.environ.get("TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT", "")
    if mode not in ("fp16", "bf16") or switch == "0":
        return False
    kernel_d = kernel[0] if dims == 3 else 1
    rule = switch == "1" or (cin <= 64 and cout <= 64 and math.prod(kernel[-2:]) <= 21)
    return all(s == 1 for s in stride) and groups == 1 and kernel_d == 1 and cin % 32 == 0 and rule


@pytest.mark.parametrize("algorithm", ["auto", "igemm"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("layout", ["contiguous", "row_padded", "misaligned", "channels_last", "strided"])
@pytest.mark.parametrize("case", range(len(SHIFTED_X_GRID)), ids=[f"s{i}" for i in range(len(SHIFTED_X_GRID))])
def test_grad_weight_shifted_x(case, layout, mode, algorithm, poison_allocator):
    """Matches float64 and torch in every layout and mode; on Hopper in TF32 mode and in fp16/bf16, "auto" with
    TMA-mappable tensors runs the shifted-x kernel (so these cases test it, not a fallback), and the other layouts fall
    back."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        run_case(*SHIFTED_X_GRID[case], mode=mode, layout=layout,
                 seed=zlib.crc32(f"{SHIFTED_X_GRID[case]}{layout}{mode}s".encode()) % 10000,
                 poison=poison_allocator, algorithm=algorithm)
    if mode != "fp32" and algorithm == "auto" and wgmma_kernels_run():
        dims, _, cin, cout, groups, kernel = SHIFTED_X_GRID[case][:6]
        kernel_w = kernel[-1]
        mappable = (shifted_x_maps(SHIFTED_X_GRID[case], layout, mode) and (mode == "tf32" or SHIFTED_X_16BIT)
                    and shifted_x_channels_taken(dims, cin // groups, cout // groups, kernel_w, mode,
                                                 math.prod(kernel[:-1])))
        names = grad_weight_kernel_names(prof)
        # 16-bit unit-stride calls with few channels go to the mma.sync grad_weight first, where it runs
        unit_stride = any(any(k in n for k in UNIT_STRIDE_GRAD_WEIGHT_KERNELS) for n in names)
        assert not unit_stride or unit_stride_mma_grad_weight_rule_admits(SHIFTED_X_GRID[case], mode), names
        data = {"tf32": "float", "fp16": "__half", "bf16": "__nv_bfloat16"}[mode]
        took = shifted_x_kernel_ran(names, data, kernel_w)
        # a call the plain way cannot give the kernel may reach it swapped (x and grad_output exchanged)
        assert took == (mappable and not unit_stride) or (took and swap_admits(SHIFTED_X_GRID[case])), names


def test_grad_weight_shifted_x_where_planned():
    """On Hopper in TF32 mode L1-68's k3x5x5 (C 32 -> 64) runs grad_weight as the shifted-x kernel with five W taps,
    a k3 one with three, and so does bf16 data (unless TCONV_GRAD_WEIGHT_SHIFTED_X_16BIT=0); kernel W 7 (two groups
    of 4 taps), and 64 input channels per group in bf16, take it unless TCONV_GRAD_WEIGHT_SHIFTED_X_WIDE=0; exact
    fp32, W stride 2 and 64 input channels per group of fp32 data (the mma.sync kernel's) do not. A grad_output whose
    rows are not a multiple of 16 bytes (W_out 26) takes it through the flat map (5 x 8 x 26 per channel), unless
    TCONV_GRAD_WEIGHT_SHIFTED_X_FLAT_DY=0."""
    if not wgmma_kernels_run():
        pytest.skip("the wgmma kernels run on sm_90a builds on compute capability 9.0")

    def grad_weight_kernels(kernel_w, mode="tf32", cin=32, stride_w=1, padding_w=None, width=24, height=4):
        x = torch.randn(2, cin, 3, height, width, device="cuda", dtype=dtype_of(mode))
        w = torch.randn(cin, 64, 3, 5, kernel_w, device="cuda", dtype=dtype_of(mode), requires_grad=True)
        padding_w = (kernel_w - 1) // 2 if padding_w is None else padding_w
        with precision(mode), tconv._ops.use_algorithm("auto"), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = tconv.conv_transpose3d(x, w, stride=(1, 1, stride_w), padding=(0, 0, padding_w))
            out.backward(torch.randn_like(out))
            torch.cuda.synchronize()
        return grad_weight_kernel_names(prof)
    names = grad_weight_kernels(5, padding_w=0)
    assert shifted_x_kernel_ran(names, "float", 5), names
    names = grad_weight_kernels(3)
    assert shifted_x_kernel_ran(names, "float", 3), names
    names = grad_weight_kernels(5, "bf16")
    assert shifted_x_kernel_ran(names, "__nv_bfloat16", 5) == SHIFTED_X_16BIT, names
    if SHIFTED_X_UNIT_FORCED:
        return  # the unit is forced
    # The unit (kShiftedXUnit32MaxPadding): W_out 68 computes 96 positions in units of 32 against 80 in units of 16, so
    # fp32 takes 16 there and 32 at W_out 28 (32 either way). 16-bit data (kShiftedXUnit48MaxPadding) take 48 where it
    # computes no more positions than 32 (W_out 68 and 34: 96 and 48 either way; 64: 96 against 64, so 32), unless
    # grad_output's rows are copied (W_out 34 with H_out 7: 5 x 7 x 34 elements per channel, no multiple of 8).
    for mode, width, padding_w, height, unit in (("tf32", 64, 0, 4, 16), ("tf32", 24, 0, 4, 32),
                                                 ("bf16", 64, 0, 4, 48), ("bf16", 64, 2, 4, 32),
                                                 ("bf16", 32, 1, 4, 48), ("bf16", 32, 1, 3, 32)):
        if mode == "bf16" and not (SHIFTED_X_16BIT and SHIFTED_X_FLAT_DY and SHIFTED_X_COPY_DY):
            continue  # bf16's W_out 68 and 34 (136 and 68 bytes) take the flat map, or copied rows
        names = grad_weight_kernels(5, mode, padding_w=padding_w, width=width, height=height)
        data = "float" if mode == "tf32" else "__nv_bfloat16"
        # the row ring's template names no unit: it runs at 32 only
        ring = "|grad_weight_wgmma_shifted_x_ring(?:_overlap)?_kernel<5>" if (data, unit) == ("float", 32) else ""
        assert any(re.search(rf"grad_weight_wgmma_shifted_x(?:_lean)?_kernel<{data}, {unit}, 5>{ring}", n)
                   for n in names), (mode, width, padding_w, height, names)
    names = grad_weight_kernels(7, padding_w=1)
    assert names and shifted_x_kernel_ran(names, "float", 7) == SHIFTED_X_WIDE, names
    names = grad_weight_kernels(5, "bf16", cin=64)
    assert names and shifted_x_kernel_ran(names, "__nv_bfloat16", 5) == (SHIFTED_X_WIDE and SHIFTED_X_16BIT), names
    for names in (grad_weight_kernels(5, "fp32"), grad_weight_kernels(4, stride_w=2), grad_weight_kernels(5, cin=64)):
        assert names and not any("shifted_x" in n for n in names), names
    names = grad_weight_kernels(3, padding_w=0)
    assert names and any("shifted_x" in n for n in names) == SHIFTED_X_FLAT_DY, names


# The lean shifted-x kernel (TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN: 1, 2 or 4 row slots per consumer warpgroup at most; 0,
# the measured kernel; unset, the rule: TF32 packs up to 2 slots, else the measured kernel) and its packed row slots
# (shifted_x_slots): where a group's C_out fits 64 / slots
# channels and packing lowers the row tiles, each warp (or pair of warps) of a consumer warpgroup takes a flattened
# (kd, kh) row of its own, so a block covers 3 x slots rows. Groups of 2 keep the calls plain (no swap) and off the
# unit-stride mma.sync grad_weight. fam02's channels (32 -> 16 per group, k3x5x7: 15 rows, two W tap groups of 4;
# grad_output through the flat map) in bf16 and TF32; 32 -> 32 per group at k3 (9 rows: two slots of 32 channels); a
# 2D k7x3 (one kd run of 7 rows in one tile of 12: its chains restart every 3, reach mod 3); 24 output channels per
# group (the 32-channel box reads the next group's eight) with H stride 2 and output padding (no slide); a 16-bit
# grad_output whose rows are copied (W_out 10, 3 x 5 x 10 per channel: one slot; x row-padded); and a k3x3 of 3 rows
# (one tile either way: one slot).
SHIFTED_X_SLOTS_CASES = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias, mode, layout,
    # then the blocks per split (grid x) at 4, 2 and 1 slots at most
    (3, 2, 64, 32, 2, [3, 5, 7], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [4, 6, 24], False, "bf16", "contiguous",
     8, 12, 20),
    (3, 2, 64, 32, 2, [3, 5, 7], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [4, 6, 24], True, "tf32", "contiguous",
     8, 12, 20),
    (3, 2, 64, 64, 2, [3, 3, 3], [1, 1, 1], [1, 1, 1], [0, 0, 0], [1, 1, 1], [3, 5, 16], True, "bf16", "contiguous",
     4, 4, 6),
    (2, 2, 64, 32, 2, [7, 3], [1, 1], [3, 1], [0, 0], [1, 1], [9, 16], True, "bf16", "contiguous", 2, 4, 6),
    (3, 2, 32, 48, 2, [3, 3, 3], [1, 2, 1], [0, 1, 1], [0, 1, 0], [1, 1, 1], [3, 4, 16], True, "fp16", "contiguous",
     4, 4, 6),
    (3, 2, 64, 32, 2, [3, 3, 3], [1, 1, 1], [1, 1, 1], [0, 0, 0], [1, 1, 1], [3, 5, 10], False, "bf16", "row_padded",
     6, 6, 6),
    (2, 2, 64, 32, 2, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [6, 16], False, "tf32", "contiguous", 2, 2, 2),
]


def test_grad_weight_shifted_x_lean_where_switched(tmp_path):
    """Under TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN=4, 2 and 1 every case runs the lean kernel (and under 0 the measured one)
    with the planned blocks per split (row tiles x W tap groups x groups x channel tiles: fewer where slots are
    packed), and meets the precision contract (run_case: float64 and torch, outputs and every gradient). With one slot
    (1) the lean kernel sums the same products in the same order as the measured one: the same grad_weight bits.
    Unset (the rule), exactly the TF32 cases whose blocks two slots lower run the lean kernel, with those blocks; the
    others run the measured kernel."""
    if not wgmma_kernels_run():
        pytest.skip("the shifted-x kernel runs on sm_90a builds on compute capability 9.0")
    if not (SHIFTED_X_16BIT and SHIFTED_X_WIDE and SHIFTED_X_COPY_DY and SHIFTED_X_FLAT_DY) or \
            SHIFTED_X_UNIT_FORCED or os.environ.get("TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE", "1") == "0":
        pytest.skip("the shifted-x kernel's rules are switched away from their defaults")
    code = (
        "import json, os, sys, torch, tconv\n"
        "import test_conv_transpose_gpu as t\n"
        "results = []\n"
        "for i, case in enumerate(t.SHIFTED_X_SLOTS_CASES):\n"
        "    trace = sys.argv[1] + f'.{i}.json'\n"
        "    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:\n"
        "        t.run_case(*case[:12], mode=case[12], layout=case[13], seed=90 + i)\n"
        "    prof.export_chrome_trace(trace)\n"
        "    with open(trace) as f:\n"
        "        events = json.load(f)['traceEvents']\n"
        "    os.remove(trace)\n"
        "    launches = [('shifted_x_lean_kernel' in e['name'], e['args']['grid'][0]) for e in events\n"
        "                if e.get('cat') == 'kernel' and 'grad_weight_wgmma_shifted_x' in e.get('name', '')]\n"
        "    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial = case[:11]\n"
        "    gen = torch.Generator(device='cuda').manual_seed(190 + i)\n"
        "    x = t.make_tensor([batch, cin, *spatial], t.dtype_of(case[12]), case[13], gen)\n"
        "    w = t.make_tensor([cin, cout // groups, *kernel], t.dtype_of(case[12]), 'contiguous', gen)\n"
        "    w.requires_grad_()\n"
        "    with t.precision(case[12]):\n"
        "        out = t.TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)\n"
        "        grad = t.make_tensor(list(out.shape), out.dtype, 'contiguous', gen)\n"
        "        grad_w, = torch.autograd.grad(out, [w], grad)\n"
        "    results.append((launches, grad_w.cpu()))\n"
        "torch.save(results, sys.argv[1])\n")
    saved = run_under_switch(code, tmp_path, "TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN", values=("4", "2", "1", "0", ""))
    for value, column in (("4", -3), ("2", -2), ("1", -1), ("0", -1)):
        for case, (launches, _) in zip(SHIFTED_X_SLOTS_CASES, saved[value]):
            assert launches and all(lean == (value != "0") and grid == case[column] for lean, grid in launches), \
                (value, case, launches)
    assert any(case[12] == "tf32" and case[-2] < case[-1] for case in SHIFTED_X_SLOTS_CASES)
    for case, (launches, _) in zip(SHIFTED_X_SLOTS_CASES, saved[""]):
        packs = case[12] == "tf32" and case[-2] < case[-1]
        assert launches and all(lean == packs and grid == case[-2 if packs else -1] for lean, grid in launches), \
            ("rule", case, launches)
    for case, (_, lean), (_, measured) in zip(SHIFTED_X_SLOTS_CASES, saved["1"], saved["0"]):
        assert_bitwise_equal([lean], [measured], str(case))

# The shifted-x kernel's narrow form (the rule; TCONV_GRAD_WEIGHT_SHIFTED_X_NARROW=0 keeps the measured kernel): fp32
# data with at most 32 output channels per group take 32-channel grad_output rows in the stage slots (6 stages instead
# of 4 at unit 32).
# L1-71's channels at k3 (unit 32, 5-D maps), fam11's k3x7 with padding (W tap groups of 4), 24 output channels at
# W_out 33 (meant for unit 16 with flat maps; run 436 found it on no shifted-x kernel in any form, so it checks only
# that the switches leave the other kernels' bits alone), and groups of 16 output channels at a 3D kernel of 3 (kd, kh)
# rows (one row tile: the lean rule keeps it off packing).
SHIFTED_X_NARROW_CASES = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (2, 2, 32, 32, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [8, 64], True),
    (2, 2, 32, 32, 1, [3, 7], [1, 1], [1, 3], [0, 0], [1, 1], [6, 64], False),
    (2, 2, 32, 24, 1, [3, 3], [1, 1], [0, 0], [0, 0], [1, 1], [9, 31], True),
    (3, 2, 64, 32, 2, [1, 3, 3], [1, 1, 1], [0, 1, 1], [0, 0, 0], [1, 1, 1], [3, 5, 16], False),
]


def shifted_x_grad_weight_launches(case, mode, layout, seed, trace, grad_layout="contiguous"):
    """grad_weight of `case` (no bias; fresh inputs from `seed`; x in `layout`, grad_output in `grad_layout`) and the
    shifted-x kernels that computed it, as [(kernel name, grid x)] (from a profiler trace written to `trace`, then
    removed); for the switch tests' subprocesses."""
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial = case[:11]
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = make_tensor([batch, cin, *spatial], dtype_of(mode), layout, gen)
    w = make_tensor([cin, cout // groups, *kernel], dtype_of(mode), "contiguous", gen)
    w.requires_grad_()
    with precision(mode), torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
        grad = make_tensor(list(out.shape), out.dtype, grad_layout, gen)
        grad_w, = torch.autograd.grad(out, [w], grad)
        torch.cuda.synchronize()
    prof.export_chrome_trace(trace)
    with open(trace) as f:
        events = json.load(f)["traceEvents"]
    os.remove(trace)
    launches = [(e["name"], e["args"]["grid"][0]) for e in events
                if e.get("cat") == "kernel" and "grad_weight_wgmma_shifted_x" in e.get("name", "")]
    return launches, grad_w.cpu()


def contract_and_launches_code(cases: str, seed: int, mode: str = "tf32", environ: str = "",
                               layout: str = "contiguous") -> str:
    """Code for run_under_switch: each case of test_conv_transpose_gpu's list `cases` (its first 12 fields) through
    run_case in `mode` (TF32 unless given; the contract, poisoned outputs; seed + i), then its grad_weight and
    shifted-x launches (shifted_x_grad_weight_launches, seed + 100 + i); saves [(launches, grad_weight)]. `environ`:
    "NAME=value" pairs (space-separated) set in the process before tconv runs (other switches held fixed). `layout`:
    x's and grad_output's (and run_case's weight's; channels_last hands grad_output on in the output's format, as
    autograd does)."""
    settings = [pair.partition("=") for pair in environ.split()]
    return (
        "import os, sys, torch\n"
        + "".join(f"os.environ[{name!r}] = {value!r}\n" for name, _, value in settings)
        + "import test_conv_transpose_gpu as t\n"
        "from conftest import poison_cuda_allocator\n"
        "results = []\n"
        f"for i, case in enumerate(t.{cases}):\n"
        f"    t.run_case(*case[:12], mode={mode!r}, layout={layout!r}, seed={seed} + i,\n"
        f"               poison=poison_cuda_allocator, grad_like_output={layout != 'contiguous'})\n"
        f"    trace = sys.argv[1] + f'.{{i}}.json'\n"
        f"    results.append(t.shifted_x_grad_weight_launches(case, {mode!r}, {layout!r}, {seed + 100} + i, trace,\n"
        f"                                                    {layout!r}))\n"
        "torch.save(results, sys.argv[1])\n")


def test_grad_weight_shifted_x_narrow_agrees_bitwise(tmp_path, monkeypatch):
    """By default (TCONV_GRAD_WEIGHT_SHIFTED_X_NARROW unset) and under =1 every case that the measured shifted-x kernel
    takes in TF32 (=0) runs the narrow form instead, with the same grid, meets the precision contract (run_case:
    float64 and torch, outputs and every gradient, poisoned outputs), and gives the measured kernel's grad_weight bits
    (the same products in the same order; only the unstored rows 32-63 of each m64 differ). At least three cases take
    it. The row ring stays off (TCONV_GRAD_WEIGHT_SHIFTED_X_RING=0): under =0 it would take the measured kernel's
    cases at a unit of 32 (its own test compares it with that kernel)."""
    if not wgmma_kernels_run():
        pytest.skip("the shifted-x kernel runs on sm_90a builds on compute capability 9.0")
    if not SHIFTED_X_FLAT_DY or SHIFTED_X_UNIT_FORCED or \
            os.environ.get("TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN", "") not in ("", "0"):
        pytest.skip("the shifted-x kernel's rules are switched away from their defaults")
    monkeypatch.setenv("TCONV_GRAD_WEIGHT_SHIFTED_X_RING", "0")
    code = contract_and_launches_code("SHIFTED_X_NARROW_CASES", 120)
    saved = run_under_switch(code, tmp_path, "TCONV_GRAD_WEIGHT_SHIFTED_X_NARROW", values=("1", "0", ""))
    for case, (forced, forced_w), (rule, rule_w) in zip(SHIFTED_X_NARROW_CASES, saved["1"], saved[""]):
        assert forced == rule, (case, forced, rule)
        assert_bitwise_equal([rule_w], [forced_w], str(case))
    taken = 0
    for case, (narrow_launches, narrow_w), (measured_launches, measured_w) in \
            zip(SHIFTED_X_NARROW_CASES, saved["1"], saved["0"]):
        assert not any("narrow" in name for name, _ in measured_launches), (case, measured_launches)
        measured = [grid for name, grid in measured_launches if "shifted_x_kernel" in name]
        if measured:
            taken += 1
            assert [grid for name, grid in narrow_launches if "shifted_x_narrow_kernel" in name] == measured, \
                (case, narrow_launches, measured_launches)
        assert_bitwise_equal([narrow_w], [measured_w], str(case))
    assert taken >= 3, taken


def test_grad_weight_shifted_x_slide_agrees_bitwise(tmp_path):
    """The shifted-x kernel slides its grad_output rows along a sweep where it has kShiftedXSlideMinStages stages or
    more and loads every row in every unit where it has fewer (fp32 data at unit 32 in the wide rows):
    grad_weight_shifted_x_slide's rule, the switch unset; TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE=1 slides everywhere and 0
    nowhere. All read the same rows: every SHIFTED_X_SLOTS_CASES case (in its mode: lean and measured kernels, bf16,
    fp16, TF32) and every narrow case (TF32) meets the precision contract under 1 and 0 (run_case: float64 and torch,
    outputs and every gradient, poisoned outputs) and gives the same grad_weight bits under 1, 0 and the rule, from
    the same launches; all of the former and at least three of the latter run the shifted-x kernel."""
    if not wgmma_kernels_run():
        pytest.skip("the shifted-x kernel runs on sm_90a builds on compute capability 9.0")
    if not (SHIFTED_X_16BIT and SHIFTED_X_WIDE and SHIFTED_X_COPY_DY and SHIFTED_X_FLAT_DY) or SHIFTED_X_UNIT_FORCED:
        pytest.skip("the shifted-x kernel's rules are switched away from their defaults")
    code = (
        "import os, sys, torch\n"
        "import test_conv_transpose_gpu as t\n"
        "from conftest import poison_cuda_allocator\n"
        "cases = [(c[:12], c[12], c[13]) for c in t.SHIFTED_X_SLOTS_CASES] + \\\n"
        "    [(c, 'tf32', 'contiguous') for c in t.SHIFTED_X_NARROW_CASES]\n"
        "contract = os.environ['TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE'] != ''\n"
        "results = []\n"
        "for i, (case, mode, layout) in enumerate(cases):\n"
        "    if contract:\n"
        "        t.run_case(*case, mode=mode, layout=layout, seed=140 + i, poison=poison_cuda_allocator)\n"
        "    trace = sys.argv[1] + f'.{i}.json'\n"
        "    results.append(t.shifted_x_grad_weight_launches(case, mode, layout, 240 + i, trace))\n"
        "torch.save(results, sys.argv[1])\n")
    saved = run_under_switch(code, tmp_path, "TCONV_GRAD_WEIGHT_SHIFTED_X_SLIDE", values=("1", "0", ""))
    cases = SHIFTED_X_SLOTS_CASES + SHIFTED_X_NARROW_CASES
    for case, (slid_launches, slid_w), (loaded_launches, loaded_w), (rule_launches, rule_w) in \
            zip(cases, saved["1"], saved["0"], saved[""]):
        assert slid_launches == loaded_launches == rule_launches, (case, slid_launches, loaded_launches, rule_launches)
        assert_bitwise_equal([slid_w, rule_w], [loaded_w, loaded_w], str(case))
    assert all(launches for launches, _ in saved["1"][:len(SHIFTED_X_SLOTS_CASES)])
    assert sum(bool(launches) for launches, _ in saved["1"][len(SHIFTED_X_SLOTS_CASES):]) >= 3


# The shifted-x kernel's row ring (TCONV_GRAD_WEIGHT_SHIFTED_X_RING unset or 1, wherever it applies: fp32 data at a
# unit of 32, the measured kernel's rows, more than one (kd, kh) row): W_out 64 (unit 32) with 3 rows in one chain;
# 5 rows (the second tile's third row past the kernel); kernel W 5 with partial C_in and C_out tiles; W_out 62 (the
# flat grad_output map); an L2-61-like 3D call (the swapped way: W 32); H stride 2 (no sliding); kH 2 in 3D (chains
# across a tile: two heads a unit); groups.
SHIFTED_X_RING_CASES = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (2, 2, 32, 64, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [8, 64], True),
    (2, 2, 32, 64, 1, [5, 3], [1, 1], [2, 1], [0, 0], [1, 1], [9, 64], False),
    (2, 2, 48, 96, 1, [3, 5], [1, 1], [1, 2], [0, 0], [1, 1], [6, 64], True),
    (2, 2, 32, 64, 1, [3, 3], [1, 1], [0, 0], [0, 0], [1, 1], [8, 60], False),
    (3, 2, 64, 128, 1, [3, 3, 3], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [4, 6, 32], False),
    (2, 2, 32, 64, 1, [3, 3], [2, 1], [1, 1], [1, 0], [1, 1], [5, 64], True),
    (3, 2, 32, 64, 1, [2, 2, 3], [1, 1, 1], [0, 0, 1], [0, 0, 0], [1, 1, 1], [3, 4, 64], True),
    (3, 2, 64, 128, 2, [3, 3, 3], [1, 1, 1], [1, 1, 1], [0, 0, 0], [1, 1, 1], [3, 4, 64], False),
]


def ring_cases_under_switch(tmp_path, switch: str) -> dict:
    """SHIFTED_X_RING_CASES' launches and grad_weight under `switch` at 1, 0 and unset (a fresh process each), for the
    ring's tests; skips where the shifted-x kernel does not run or its rules are switched away from their defaults."""
    if not wgmma_kernels_run():
        pytest.skip("the shifted-x kernel runs on sm_90a builds on compute capability 9.0")
    if not (SHIFTED_X_WIDE and SHIFTED_X_FLAT_DY) or SHIFTED_X_UNIT_FORCED or \
            os.environ.get("TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN", "") not in ("", "0"):
        pytest.skip("the shifted-x kernel's rules are switched away from their defaults")
    code = contract_and_launches_code("SHIFTED_X_RING_CASES", 160)
    return run_under_switch(code, tmp_path, switch, values=("1", "0", ""))


def test_grad_weight_shifted_x_ring_agrees_bitwise(tmp_path, monkeypatch):
    """Under TCONV_GRAD_WEIGHT_SHIFTED_X_RING=1 every case that the measured shifted-x kernel takes at a unit of 32 in
    TF32 (=0) runs the row ring instead, with the same grid, meets the precision contract (run_case: float64 and
    torch, outputs and every gradient, poisoned outputs) and gives the measured kernel's grad_weight bits (the same
    products in the same order, the rows read from the ring). Under 0 no ring kernel runs. At least five cases take
    it. Unset (the default since session 111), every case runs as under 1, with the same bits. The plain ring
    (TCONV_GRAD_WEIGHT_SHIFTED_X_RING_OVERLAP=0): its overlap form has a test of its own."""
    monkeypatch.setenv("TCONV_GRAD_WEIGHT_SHIFTED_X_RING_OVERLAP", "0")
    saved = ring_cases_under_switch(tmp_path, "TCONV_GRAD_WEIGHT_SHIFTED_X_RING")
    taken = 0
    for case, (ring_launches, ring_w), (measured_launches, measured_w), (rule_launches, rule_w) in \
            zip(SHIFTED_X_RING_CASES, saved["1"], saved["0"], saved[""]):
        assert not any("ring" in name for name, _ in measured_launches), (case, measured_launches)
        measured = [grid for name, grid in measured_launches if "shifted_x_kernel<float, 32," in name]
        if measured:
            taken += 1
            assert [grid for name, grid in ring_launches if "shifted_x_ring_kernel" in name] == measured, \
                (case, ring_launches, measured_launches)
            assert not any("shifted_x_kernel<float, 32," in name for name, _ in ring_launches), (case, ring_launches)
        assert rule_launches == ring_launches, (case, rule_launches, ring_launches)
        assert_bitwise_equal([ring_w, rule_w], [measured_w, measured_w], str(case))
    assert taken >= 5, taken


def test_grad_weight_shifted_x_ring_overlap_agrees_bitwise(tmp_path, monkeypatch):
    """With the ring forced (TCONV_GRAD_WEIGHT_SHIFTED_X_RING=1), TCONV_GRAD_WEIGHT_SHIFTED_X_RING_OVERLAP=1 and unset
    (the default) run the ring kernel whose wgmmas stay in flight into the next unit's waits
    (`shifted_x_ring_overlap_kernel`) wherever the plain ring runs under =0, with the same grid, meet the precision
    contract and give the plain ring's grad_weight bits (the same MMAs in the same order; only where the warpgroup
    waits for them moves)."""
    monkeypatch.setenv("TCONV_GRAD_WEIGHT_SHIFTED_X_RING", "1")
    saved = ring_cases_under_switch(tmp_path, "TCONV_GRAD_WEIGHT_SHIFTED_X_RING_OVERLAP")
    taken = 0
    for case, (overlap_launches, overlap_w), (plain_launches, plain_w), (default_launches, default_w) in \
            zip(SHIFTED_X_RING_CASES, saved["1"], saved["0"], saved[""]):
        assert default_launches == overlap_launches, (case, default_launches, overlap_launches)
        plain = [grid for name, grid in plain_launches if "shifted_x_ring_kernel" in name]
        assert not any("ring_overlap" in name for name, _ in plain_launches), (case, plain_launches)
        assert not any("shifted_x_ring_kernel" in name for name, _ in overlap_launches), (case, overlap_launches)
        if plain:
            taken += 1
            assert [grid for name, grid in overlap_launches if "shifted_x_ring_overlap_kernel" in name] == plain, \
                (case, overlap_launches, plain_launches)
        assert_bitwise_equal([overlap_w, default_w], [plain_w, plain_w], str(case))
    assert taken >= 5, taken


# The ring's channels-last form beyond SHIFTED_X_RING_CASES: groups of 32 -> 32 in 2D (the boxes read the next
# group's channels, stored nowhere), 16 output channels (the grad_output box of 72 channels runs past C_out; a 64-row
# tile three-quarters padding), L1-71's 32 -> 32 with a W_out of 72 (no whole unit at the end) and bias, and 3D groups
# of 32 -> 16.
SHIFTED_X_CHANNELS_LAST_EXTRA_CASES = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (2, 2, 64, 64, 2, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [8, 48], True),
    (2, 2, 32, 16, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [8, 40], False),
    (2, 1, 32, 32, 1, [3, 3], [1, 1], [0, 0], [0, 0], [1, 1], [12, 70], True),
    (3, 1, 64, 32, 2, [3, 3, 3], [1, 1, 1], [1, 1, 1], [0, 0, 0], [1, 1, 1], [3, 4, 20], False),
]
SHIFTED_X_CHANNELS_LAST_CASES = SHIFTED_X_RING_CASES + SHIFTED_X_CHANNELS_LAST_EXTRA_CASES


def test_grad_weight_shifted_x_channels_last_agrees_bitwise(tmp_path, monkeypatch):
    """SHIFTED_X_CHANNELS_LAST_CASES in TF32 channels_last (x and grad_output channels innermost) meet the precision
    contract (run_case: float64 and torch, outputs and every gradient, poisoned outputs) under
    TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS_LAST=1, 0 and unset. Under 1 each extra case (groups, 16 and 32 output
    channels) runs the form, and wherever the contiguous case runs the overlapping ring (at least five cases) the
    channels-last case runs the ring's channels-last form (`shifted_x_ring_channels_last_kernel`: the same plan, so
    the same grid) and gives the contiguous grad_weight bits (the same values meet the same wgmmas in the same order),
    and any shifted-x launch of a channels-last case is that form. Unset (the default since session 114) runs as 1, with the same bits; under 0 no channels-last ring kernel
    runs. (Run 566 passed it with the form off by default: unset then ran as 0.)"""
    if not wgmma_kernels_run():
        pytest.skip("the shifted-x kernel runs on sm_90a builds on compute capability 9.0")
    if not (SHIFTED_X_WIDE and SHIFTED_X_FLAT_DY) or SHIFTED_X_UNIT_FORCED or \
            os.environ.get("TCONV_GRAD_WEIGHT_SHIFTED_X_LEAN", "") not in ("", "0"):
        pytest.skip("the shifted-x kernel's rules are switched away from their defaults")
    # the contiguous cases' ring and orientation by rule, as the channels-last form's plan has them
    for rule in ("SHIFTED_X_RING", "SHIFTED_X_RING_OVERLAP", "SWAP"):
        monkeypatch.delenv(f"TCONV_GRAD_WEIGHT_{rule}", raising=False)
    switch = "TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS_LAST"
    code = contract_and_launches_code("SHIFTED_X_CHANNELS_LAST_CASES", 170, layout="channels_last")
    saved = run_under_switch(code, tmp_path, switch, values=("1", "0", ""))
    (tmp_path / "contiguous").mkdir()
    contiguous = run_under_switch(contract_and_launches_code("SHIFTED_X_CHANNELS_LAST_CASES", 170),
                                  tmp_path / "contiguous", switch, values=("1",))
    for case, (cl_launches, _) in zip(SHIFTED_X_CHANNELS_LAST_EXTRA_CASES, saved["1"][len(SHIFTED_X_RING_CASES):]):
        assert cl_launches, case  # each extra case runs the form
    taken = 0
    for case, (cl_launches, cl_w), (off_launches, _), (default_launches, default_w), (plain_launches, plain_w) in zip(
            SHIFTED_X_CHANNELS_LAST_CASES, saved["1"], saved["0"], saved[""], contiguous["1"]):
        assert default_launches == cl_launches, (case, default_launches, cl_launches)
        assert_bitwise_equal([default_w], [cl_w], str(case))
        for launches in (off_launches, plain_launches):
            assert not any("channels_last" in name for name, _ in launches), (case, launches)
        ours = [grid for name, grid in cl_launches if "shifted_x_ring_channels_last_kernel" in name]
        assert len(ours) == len(cl_launches), (case, cl_launches)
        ring = [grid for name, grid in plain_launches if "shifted_x_ring_overlap_kernel" in name]
        if ring:
            taken += 1
            assert ours == ring, (case, cl_launches, plain_launches)
            assert_bitwise_equal([cl_w], [plain_w], str(case))
    assert taken >= 5, taken


# The shifted-x kernel's channel-tile form (the default; TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=0 never takes it): fp32
# data with one (kd, kh) row and more than 64 output channels per group; warpgroup w takes
# C_out tile co0 + 64 w. fam04's shape at 128 channels (the third warpgroup idle), 96 output channels with a kernel
# W of 7 (two W tap groups of 4; the second tile half past the channels), groups of 32 -> 96 (the box reads the next
# group's channels; stored nowhere), a 2D kernel 1 x 3 at 256 output channels (two C_out blocks of three tiles), and a
# 3D kernel 1 x 1 x 5 with a D stride of 2, output padding and 48 input channels (two C_in tiles, one partial). The
# last three read grad_output as channel-pair rows (shifted_x_dy_interleave: a channel's plane 2 floats past 16 bytes,
# as fam04's W_out 65538; x's rows on 16 bytes): W_out 102 (the odd channels' boxes start 2 positions early), groups
# of 32 -> 96 at W_out 66 (a tile of 32 channels: 16 pairs), and a 1 x 3 kernel over 3 x 42 output rows (each row's
# even and odd box shifts). Run 441 found the first versions of the last two with x rows off 16 bytes (no x map).
SHIFTED_X_CHANNEL_CASES = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias, then the
    # planned blocks per split (grid x: W tap groups x groups x C_in tiles x C_out blocks of 192)
    (1, 2, 64, 128, 1, [3], [1], [1], [0], [1], [100], True, 2),
    (1, 3, 32, 96, 1, [7], [1], [3], [0], [1], [76], False, 2),
    (1, 2, 64, 192, 2, [5], [1], [0], [0], [1], [64], True, 2),
    (2, 2, 32, 256, 1, [1, 3], [1, 1], [0, 1], [0, 0], [1, 1], [3, 40], False, 2),
    (3, 2, 48, 80, 1, [1, 1, 5], [2, 1, 1], [0, 0, 2], [1, 0, 0], [1, 1, 1], [2, 3, 32], True, 2),
    (1, 2, 64, 128, 1, [3], [1], [0], [0], [1], [100], False, 2),
    (1, 2, 64, 192, 2, [5], [1], [1], [0], [1], [64], True, 2),
    (2, 2, 32, 256, 1, [1, 3], [1, 1], [0, 0], [0, 0], [1, 1], [3, 40], False, 2),
]


def test_grad_weight_shifted_x_channel_tiles_meet_the_contract(tmp_path):
    """Under TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS=1 and unset (the default) every case runs its grad_weight on the
    shifted-x kernel's channel-tile form, with the planned blocks per split, and meets the precision contract in TF32
    (run_case: float64 and torch, outputs and every gradient, poisoned outputs), with the same bits both ways; under 0
    no shifted-x kernel runs on these one-row kernels."""
    if not wgmma_kernels_run():
        pytest.skip("the shifted-x kernel runs on sm_90a builds on compute capability 9.0")
    if not SHIFTED_X_FLAT_DY or SHIFTED_X_UNIT_FORCED:
        pytest.skip("the shifted-x kernel's rules are switched away from their defaults")
    code = contract_and_launches_code("SHIFTED_X_CHANNEL_CASES", 160)
    saved = run_under_switch(code, tmp_path, "TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS", values=("1", "0", ""))
    for value in ("1", ""):
        for case, (launches, _) in zip(SHIFTED_X_CHANNEL_CASES, saved[value]):
            assert launches and all("shifted_x_channels_kernel" in name and grid == case[-1]
                                    for name, grid in launches), (value, case, launches)
    for case, (forced, forced_w), (rule, rule_w) in zip(SHIFTED_X_CHANNEL_CASES, saved["1"], saved[""]):
        assert forced == rule, (case, forced, rule)
        assert_bitwise_equal([rule_w], [forced_w], str(case))
    for case, (launches, _) in zip(SHIFTED_X_CHANNEL_CASES, saved["0"]):
        assert not launches, (case, launches)


# The channel-tile form on fp16/bf16 data (session 77's; the rule since run 447, where the unit-stride grad_weight steps
# aside), x rows on 16 bytes: grad_output read as 4-channel rows (W_out 98: a 16-bit plane 4 bytes past 16), through
# the 5-D map (W_out 96), as 2-channel rows in groups of 32 -> 96 (W_out 68: 8 bytes past), and as 4-channel rows of a
# 1 x 3 kernel over 3 x 42 output rows. The first two are fam04's form (64 -> 128, k3), which the unit-stride wgmma
# grad_weight took before run 447.
SHIFTED_X_CHANNEL_16BIT_CASES = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias, then the
    # planned blocks per split (grid x: W tap groups x groups x C_in tiles x C_out blocks of 192)
    (1, 2, 64, 128, 1, [3], [1], [0], [0], [1], [96], False, 2),
    (1, 2, 64, 128, 1, [3], [1], [1], [0], [1], [96], True, 2),
    (1, 2, 64, 192, 2, [5], [1], [0], [0], [1], [64], True, 2),
    (2, 2, 32, 256, 1, [1, 3], [1, 1], [0, 0], [0, 0], [1, 1], [3, 40], False, 2),
]


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_grad_weight_shifted_x_channel_tiles_16bit_meet_the_contract(tmp_path, mode):
    """By default (TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS unset) "auto" runs every case's grad_weight on the 16-bit
    channel-tile kernel at a unit of 32 with the planned blocks per split, not on the unit-stride grad_weight, and
    meets the precision contract (run_case: float64 and torch, outputs and every gradient, poisoned outputs); under 1
    (fp32 data only) no shifted-x kernel runs on these one-row kernels."""
    if not wgmma_kernels_run():
        pytest.skip("the shifted-x kernel runs on sm_90a builds on compute capability 9.0")
    if SHIFTED_X_UNIT_FORCED or not SHIFTED_X_16BIT or \
            os.environ.get("TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT", "") == "1":
        pytest.skip("the shifted-x kernel's rules are switched away from their defaults")
    code = contract_and_launches_code("SHIFTED_X_CHANNEL_16BIT_CASES", 180, mode)
    saved = run_under_switch(code, tmp_path, "TCONV_GRAD_WEIGHT_SHIFTED_X_CHANNELS", values=("", "1"))
    data = {"bf16": "__nv_bfloat16", "fp16": "__half"}[mode]
    for case, (launches, _) in zip(SHIFTED_X_CHANNEL_16BIT_CASES, saved[""]):
        assert launches and all(f"shifted_x_channels16_kernel<{data}, 32, " in name and grid == case[-1]
                                for name, grid in launches), (case, launches)
    for case, (launches, _) in zip(SHIFTED_X_CHANNEL_16BIT_CASES, saved["1"]):
        assert not launches, (case, launches)


@pytest.mark.parametrize("mode", ["tf32", "bf16", "fp16"])
def test_grad_weight_shifted_x_channel_lane_boxes_agree_bitwise(tmp_path, mode):
    """By default (TCONV_GRAD_WEIGHT_SHIFTED_X_LANE_BOXES unset: a unit's grad_output boxes issued by a lane each, the
    rule since run 447) and under =0 (by lane 0 in turn) every channel-tile case runs the same kernel on the same
    grid, meets the precision contract (run_case: float64 and torch, outputs and every gradient, poisoned outputs),
    and gives the same grad_weight bits: the same boxes land in the same shared memory."""
    if not wgmma_kernels_run():
        pytest.skip("the shifted-x kernel runs on sm_90a builds on compute capability 9.0")
    if SHIFTED_X_UNIT_FORCED or not SHIFTED_X_FLAT_DY or not SHIFTED_X_CHANNEL_TILES_16BIT or \
            (mode != "tf32" and not SHIFTED_X_16BIT) or os.environ.get("TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT", "") == "1":
        pytest.skip("the shifted-x kernel's rules are switched away from their defaults")
    cases = "SHIFTED_X_CHANNEL_CASES" if mode == "tf32" else "SHIFTED_X_CHANNEL_16BIT_CASES"
    code = contract_and_launches_code(cases, 200, mode)
    saved = run_under_switch(code, tmp_path, "TCONV_GRAD_WEIGHT_SHIFTED_X_LANE_BOXES", values=("", "0"))
    kernel = "shifted_x_channels_kernel" if mode == "tf32" else "shifted_x_channels16_kernel"
    for case, (lanes, lanes_w), (plain, plain_w) in zip(globals()[cases], saved[""], saved["0"]):
        assert lanes and lanes == plain and all(kernel in name and grid == case[-1] for name, grid in lanes), (
            case, lanes, plain)
        assert_bitwise_equal([plain_w], [lanes_w], str(case))


# grad_weight computed swapped (TCONV_GRAD_WEIGHT_SWAP=1 swaps wherever it can: stride 1, groups 1, every padding
# within d (K - 1), no output padding): as the grad_weight of the problem with x and grad_output exchanged, its sums
# written transposed and flipped into the weight's shape. fam07's form (48 -> 24 channels, padding 0, W 32 -> 34:
# the swapped x is grad_output, whose 34-wide rows take the shifted-x kernel's flat x map in every mode), 2D with
# padding and an H dilation (padding 1 -> 3 swapped), an asymmetric 3D kernel with bias, a 1D kernel (other kernels
# than shifted-x), and L2-61's channels (64 -> 128).
SWAPPED_GRID = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (3, 2, 48, 24, 1, [3, 3, 3], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [5, 6, 32], False),
    (2, 2, 32, 40, 1, [3, 5], [1, 1], [1, 2], [0, 0], [2, 1], [7, 27], True),
    (3, 1, 32, 64, 1, [2, 3, 4], [1, 1, 1], [1, 0, 3], [0, 0, 0], [1, 1, 1], [4, 5, 13], True),
    (1, 3, 16, 48, 1, [5], [1], [2], [0], [1], [61], False),
    (3, 2, 64, 128, 1, [3, 3, 3], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [4, 4, 30], False),
]


def test_grad_weight_swapped_meets_the_contract(tmp_path):
    """Each SWAPPED_GRID case in every mode, contiguous and channels_last, meets the contract (run_case: float64 and
    torch, every gradient, poisoned outputs) under TCONV_GRAD_WEIGHT_SWAP=1, =0 and unset (the rule), one subprocess
    each (tconv reads the switch once per process). Then one grad_weight per case and mode from fresh random data:
    the swapped sums differ from the plain ones in some 16-bit or TF32 grad_weight (their order differs), so the
    switch did change the computation; under 1, fam07's form ran the shifted-x kernel. The rule swaps fam07's form in
    bf16 (it counts 0.75 of the plain way's work: units of 32 over W_out 32 against 48 over 34) and in TF32 (the plain
    way keeps the wgmma kernel; 0.41 of its shifted-x plan): bitwise the forced swap's sums there, not the plain ones.
    (Run 401 compared sums from a grad_output of ones, which every order gave alike.)"""
    code = (
        "import sys, torch\n"
        "import test_conv_transpose_gpu as t\n"
        "from conftest import poison_cuda_allocator\n"
        "results = {}\n"
        "for i, case in enumerate(t.SWAPPED_GRID):\n"
        "    for mode in t.MODES:\n"
        "        for layout in ('contiguous', 'channels_last'):\n"
        "            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:\n"
        "                t.run_case(*case, mode=mode, layout=layout, seed=900 + i, poison=poison_cuda_allocator)\n"
        "            gen = torch.Generator(device='cuda').manual_seed(900 + i)\n"
        "            x = t.make_tensor([case[1], case[2], *case[10]], t.dtype_of(mode), layout, gen)\n"
        "            w = t.make_tensor([case[2], case[3], *case[5]], t.dtype_of(mode), 'contiguous', gen)\n"
        "            w.requires_grad_()\n"
        "            with t.precision(mode):\n"
        "                out = t.TCONV_FN[case[0]](x, w, None, case[6], case[7], case[8], 1, case[9])\n"
        "                grad = t.make_tensor(list(out.shape), out.dtype, 'contiguous', gen)\n"
        "                grad_w, = torch.autograd.grad(out, [w], grad)\n"
        "            results[(i, mode, layout)] = (grad_w.cpu(), t.grad_weight_kernel_names(prof))\n"
        "torch.save(results, sys.argv[1])\n")
    saved = run_under_switch(code, tmp_path, "TCONV_GRAD_WEIGHT_SWAP", values=("1", "0", ""), timeout=600)
    differs = [key for key, (grad_w, _) in saved["1"].items()
               if key[1] != "fp32" and not torch.equal(grad_w, saved["0"][key][0])]
    assert differs, "the swapped grad_weight summed in the plain order everywhere"
    if wgmma_kernels_run():
        names = saved["1"][(0, "bf16", "contiguous")][1]
        assert any("shifted_x" in n for n in names), names
        for mode in ("bf16", "tf32"):
            key = (0, mode, "contiguous")
            assert torch.equal(saved[""][key][0], saved["1"][key][0]), key
            assert not torch.equal(saved[""][key][0], saved["0"][key][0]), key


def test_grad_weight_rows_expanded_grad_output():
    """A grad_output expanded along the batch (stride 0, W contiguous), as a broadcast loss gives it: the rows
    kernel's tensor maps take it or the call falls back to the other kernels; either way grad_weight matches float64
    and torch in TF32 mode."""
    gen = torch.Generator(device="cuda").manual_seed(26)
    x = torch.randn(3, 128, 5, 8, generator=gen, device="cuda")
    w = torch.randn(128, 32, 4, 4, generator=gen, device="cuda", requires_grad=True)
    grad = torch.randn(1, 32, 10, 16, generator=gen, device="cuda").expand(3, 32, 10, 16)
    with precision("tf32"):
        ours = torch.autograd.grad(tconv.conv_transpose2d(x, w, None, 2, 1), w, grad)[0]
        theirs = torch.autograd.grad(F.conv_transpose2d(x, w, None, 2, 1), w, grad)[0]
    w64 = w.detach().double().requires_grad_()
    ref64 = torch.autograd.grad(F.conv_transpose2d(x.double(), w64, None, 2, 1), w64, grad.double())[0]
    rx, rw = round_to_tf32(x), round_to_tf32(w).requires_grad_()
    ideal = torch.autograd.grad(F.conv_transpose2d(rx, rw, None, 2, 1), rw, round_to_tf32(grad))[0]
    check_close("grad_weight", ours, ref64, theirs, "tf32", ideal)


# The 16-bit gather GEMMs' A copies (PairedRows in conv_transpose_igemm.cu: channel pairs loaded by the
# thread, stored as 32-bit words, or as 16-byte groups of four on the wgmma tiles) on every source layout: contiguous with odd W and odd channel counts
# (a partial last pair), a source one element off its alignment, channels_last, strided; W stride 2
# without the window, the fold, the shallow (<= 32 channels) and deep K tiles, and all three column tiles.
PAIR_GRID = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (2, 2, 40, 24, 1, [3, 5], [1, 1], [1, 2], [0, 0], [1, 1], [9, 70], True),
    (2, 2, 33, 40, 1, [3, 5], [1, 1], [1, 2], [0, 0], [1, 1], [9, 69], False),
    (3, 2, 24, 72, 1, [3, 3, 3], [1, 1, 2], [1, 1, 1], [0, 0, 1], [1, 1, 1], [3, 4, 34], True),
    (1, 2, 20, 136, 1, [4], [2], [1], [0], [1], [67], True),
    (2, 1, 31, 130, 1, [3, 7], [1, 1], [1, 3], [0, 0], [1, 2], [5, 41], True),
]


@pytest.mark.parametrize("algorithm", ["auto", "igemm_window", "igemm_nowindow", "igemm_fold"])
@pytest.mark.parametrize("mode", ["fp16", "bf16"])
@pytest.mark.parametrize("layout", ["contiguous", "misaligned", "channels_last", "strided"])
@pytest.mark.parametrize("case", PAIR_GRID, ids=[f"p{i}" for i in range(len(PAIR_GRID))])
def test_gather_16bit_layouts(case, layout, mode, algorithm, poison_allocator):
    run_case(*case, mode=mode, layout=layout, seed=zlib.crc32(f"{case}{layout}{mode}p".encode()) % 10000,
             poison=poison_allocator, algorithm=algorithm)


def grouped_supported(case, mode):
    """Mirror of grouped_supported() in conv_transpose_grouped.cu: <= 16 channels per group on each
    side, the group's weights (channels rounded up to powers of two) within 48 KiB as accumulators."""
    dims, batch, cin, cout, groups, kernel = case[:6]
    pow2 = lambda v: 1 << (v - 1).bit_length()
    cin_g, cout_g = cin // groups, cout // groups
    taps = 1
    for k in kernel:
        taps *= k
    acc_bytes = 8 if mode == "fp64" else 4
    return (cin_g <= 16 and cout_g <= 16 and taps * pow2(cin_g) * pow2(cout_g) * acc_bytes <= 48 * 1024 and
            grouped_grad_weight_stage_fits(case, mode))


def grouped_grad_weight_stage_fits(case, mode):
    """Mirror of the extra limit of grouped_grad_weight_supported() (forced "grouped" runs grad_weight
    too): the grad_output taps of one input position, C_out/g (power of two) x kD x dilated kH x
    dilated kW accumulators, plus C_in/g (power of two) x values, within 48 KiB."""
    dims, cin, cout, groups, kernel, dilation = case[0], case[2], case[3], case[4], case[5], case[9]
    pow2 = lambda v: 1 << (v - 1).bit_length()
    k = [1] * (3 - dims) + list(kernel)
    d = [1] * (3 - dims) + list(dilation)
    acc_bytes = 8 if mode == "fp64" else 4
    box = pow2(cout // groups) * k[0] * ((k[1] - 1) * d[1] + 1) * ((k[2] - 1) * d[2] + 1)
    return (box + pow2(cin // groups)) * acc_bytes <= 48 * 1024


def grouped_mma_supported(case, mode):
    """Mirror of grouped_mma_supported() in conv_transpose_grouped_mma.cu for both passes of a case: fp32/fp16/
    bf16, <= 16 channels per group on each side, the weights (channels padded to 8 or 16, fp32) plus four
    warps' C tiles (dst channels padded x (stage_w + 4) floats; stage_w = stride_w x 16 x min(4, 128 //
    (16 x stride_w)), at least one tile, forward; 64 for grad_input) within 48 KiB."""
    dims, batch, cin, cout, groups, kernel, stride = case[:7]
    if mode == "fp64":
        return False
    cin_g, cout_g = cin // groups, cout // groups
    if not (1 <= cin_g <= 16 and 1 <= cout_g <= 16):
        return False
    kp, np_ = (8 if cin_g <= 8 else 16), (8 if cout_g <= 8 else 16)
    weights = math.prod(kernel) * kp * np_
    s = stride[-1]
    stage_w = s * 16 * max(1, min(4, 128 // (16 * s)))
    forward = (weights + 4 * np_ * (stage_w + 4)) * 4
    grad_input = (weights + 4 * kp * (64 + 4)) * 4
    return max(forward, grad_input) <= 48 * 1024


# Shapes for the few-channels-per-group kernels: several W tiles (slots > 256), several rows per
# block (narrow W), 1..16 channels per group on each side, groups up to 8, the L1-73/L1-72 patterns.
GROUPED_GRID = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (3, 2, 32, 32, 4, [3, 3, 3], [2, 2, 2], [1, 1, 1], [0, 0, 0], [1, 1, 1], [3, 4, 40], True),      # L1-73-like
    (3, 2, 32, 32, 4, [3, 5, 7], [2, 2, 2], [1, 2, 3], [1, 1, 1], [1, 1, 1], [2, 3, 5], False),      # L1-72-like
    (1, 2, 16, 16, 1, [5], [2], [1], [1], [1], [300], True),
    (1, 3, 8, 24, 8, [3], [3], [2], [2], [2], [150], True),
    (2, 2, 48, 18, 3, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [7, 5], True),
    (2, 1, 7, 21, 7, [4, 3], [2, 3], [1, 0], [1, 2], [1, 2], [6, 9], False),
    (2, 2, 5, 3, 1, [3, 3], [2, 2], [0, 1], [1, 0], [3, 2], [5, 4], True),
    (2, 2, 24, 40, 8, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], [4, 70], True),
    (3, 1, 6, 12, 2, [2, 3, 2], [3, 1, 2], [0, 1, 1], [2, 0, 1], [1, 1, 2], [2, 3, 4], True),
    (2, 2, 64, 16, 8, [3, 3], [2, 2], [1, 1], [1, 1], [1, 1], [5, 6], True),
    (2, 1, 16, 16, 1, [1, 1], [1, 1], [0, 0], [0, 0], [1, 1], [9, 9], True),
    (3, 0, 8, 8, 1, [3, 3, 3], [2, 2, 2], [1, 1, 1], [1, 1, 1], [1, 1, 1], [3, 3, 3], True),
    # W stride 5 (five phases per task) over several 80-position tasks, 6 x 10 channels (padded to 8 x 16)
    (1, 2, 12, 20, 2, [7], [5], [3], [2], [1], [90], True),
    # W stride 8 with an 8-wide W kernel, 16 x 16 channels per group
    (2, 2, 16, 16, 1, [3, 8], [1, 8], [1, 2], [0, 3], [1, 1], [4, 30], True),
    # 9 x 9 channels (padded to 16 x 16), dilation, long W (three 64-position tasks per row)
    (3, 1, 18, 18, 2, [2, 3, 3], [1, 2, 1], [0, 1, 1], [0, 1, 0], [2, 1, 2], [3, 5, 140], False),
]


@pytest.mark.parametrize("algorithm", ["grouped", "grouped_mma", "auto"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("layout", ["contiguous", "channels_last", "strided"])
@pytest.mark.parametrize("case", GRID + GROUPED_GRID, ids=[f"g{i}" for i in range(len(GRID))] +
                         [f"gg{i}" for i in range(len(GROUPED_GRID))])
def test_grid_grouped(case, layout, mode, algorithm, poison_allocator):
    if algorithm == "grouped_mma":
        if not grouped_mma_supported(case, mode):
            pytest.skip("not a shape of the tensor-core grouped kernels")
    elif not grouped_supported(case, mode):
        pytest.skip("more than 16 channels per group or weights beyond 48 KiB: not a grouped-kernel shape")
    run_case(*case, mode=mode, layout=layout, seed=zlib.crc32(f"{case}{layout}{mode}g".encode()) % 10000,
             poison=poison_allocator, algorithm=algorithm)


# The grouped forward's row barrier (conv_transpose_grouped.cu, kSyncRows) is on only where a block
# has more than kSyncRowsMinSteps (16) row steps: here 8 x 8 (n, group) pairs and one 256-slot W tile
# leave 16 x SMs / 64 row chunks of the 799 output rows (33 chunks of 25 rows on 132 SMs; at most 148 SMs
# keep it above 16), so the grid's small shapes never reach it.
GROUPED_ROW_BARRIER_CASE = (2, 8, 16, 16, 8, [3, 3], [2, 2], [1, 1], [0, 0], [1, 1], [400, 120], True)


@pytest.mark.parametrize("mode,layout", [("fp32", "contiguous"), ("bf16", "channels_last"), ("tf32", "strided")])
def test_grouped_forward_row_barrier(mode, layout, poison_allocator):
    run_case(*GROUPED_ROW_BARRIER_CASE, mode=mode, layout=layout, seed=17, poison=poison_allocator,
             algorithm="grouped")


@pytest.mark.parametrize("case", GROUPED_GRID[:2] + GRID[:3], ids=["gg0", "gg1", "g0", "g1", "g2"])
def test_grouped_matches_direct(case):
    """fp32 FFMA on both sides: the grouped kernels agree with the direct ones to rounding."""
    gen = torch.Generator(device="cuda").manual_seed(3)
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias = case
    x = torch.randn(batch, cin, *spatial, device="cuda", generator=gen, requires_grad=True)
    w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=gen, requires_grad=True)
    b = torch.randn(cout, device="cuda", generator=gen, requires_grad=True) if bias else None
    args = (stride, padding, output_padding, groups, dilation)
    results = {}
    for algorithm in ("grouped", "direct"):
        with tconv._ops.use_algorithm(algorithm):
            out = TCONV_FN[dims](x, w, b, *args)
            g = torch.autograd.grad(out, [x], torch.ones_like(out))[0]
        results[algorithm] = (out, g)
    for got, ref in zip(results["grouped"], results["direct"]):
        torch.testing.assert_close(got, ref, atol=1e-5, rtol=1e-5)


def _run_isolated(code: str) -> str:
    """Runs `code` in a fresh interpreter, so a crash fails this test instead of ending the session."""
    completed = subprocess.run([sys.executable, "-X", "faulthandler", "-c", code], capture_output=True, text=True,
                               timeout=300)
    assert completed.returncode == 0, f"exit {completed.returncode}\n{completed.stdout}\n{completed.stderr[-3000:]}"
    return completed.stdout


def test_forced_grouped_refuses_wide_groups():
    # Runs 9-11 (H200): this call crashed the interpreter (SIGSEGV) instead of raising (see
    # tconv/csrc/torch_check.h); isolated so a crash fails this test, not the session.
    out = _run_isolated(
        "import torch, tconv\n"
        "x = torch.rand(1, 32, 5, 5, device='cuda'); w = torch.rand(32, 32, 3, 3, device='cuda')\n"
        "try:\n"
        "    with tconv._ops.use_algorithm('grouped'):\n"
        "        tconv.conv_transpose2d(x, w)\n"
        "except RuntimeError as error:\n"
        "    print('raised:', str(error).splitlines()[0])\n")
    assert "raised:" in out and "grouped" in out


def test_kernel_side_checks_raise_runtime_error():
    """The C++ checks with formatted messages (several arguments) raise RuntimeError, never crash."""
    out = _run_isolated(
        "import torch, tconv\n"
        "ext = tconv._build.load()\n"
        "x = torch.rand(1, 4, 1, 5, 5, device='cuda'); w = torch.rand(4, 4, 1, 3, 3, device='cuda')\n"
        "bad_output = torch.empty(1, 4, 1, 9, 9, device='cuda')  # a 3x3 kernel gives 7x7\n"
        "try:\n"
        "    ext.forward_out(x, w, None, bad_output, [1, 1, 1], [0, 0, 0], [1, 1, 1], 1, True, 'auto')\n"
        "except RuntimeError as error:\n"
        "    print('raised:', str(error).splitlines()[0])\n")
    assert "raised:" in out and "inconsistent" in out


def test_auto_picks_grouped_for_few_channels():
    """L1-73's channel pattern (8 x 8 per group) runs grad_input on the FFMA grouped kernel under "auto", grad_weight
    on the tensor-core one, and the forward on the FFMA one with TF32 off (3xTF32 loses there, run 267) but on the
    lines form in TF32;
    "grouped_mma" runs the tensor-core kernels for both gather passes and grad_weight; 32 x 32 runs neither."""
    def kernel_names(cin, groups, algorithm="auto", mode="tf32"):
        x = torch.rand(1, cin, 4, 6, 6, device="cuda", requires_grad=True)
        w = torch.rand(cin, cin // groups, 3, 3, 3, device="cuda", requires_grad=True)
        with precision(mode), tconv._ops.use_algorithm(algorithm), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = tconv.conv_transpose3d(x, w, None, 2, 1, 0, groups)
            out.backward(torch.ones_like(out))
            torch.cuda.synchronize()
        return {e.name for e in prof.events()}
    exact = " ".join(kernel_names(32, 4, mode="fp32"))
    assert "tconv_grouped_forward_kernel" in exact and "tconv_grouped_grad_input_kernel" in exact, exact
    assert "tconv_grouped_mma_lines_kernel" not in exact, exact
    # grad_weight on tensor cores in 3xTF32 too (run 271, 8 warps: L1-73 2.62 -> 1.94 ms), never on the FFMA grouped
    # kernel under "auto" (slower on L1-73, run 19).
    assert "tconv_grouped_mma_grad_weight_kernel" in exact, exact
    assert "tconv_grouped_grad_weight_kernel" not in exact, exact
    tf32 = " ".join(kernel_names(32, 4))
    assert "tconv_grouped_mma_lines_kernel" in tf32 and "tconv_grouped_grad_input_kernel" in tf32, tf32
    # TF32 grad_weight on tensor cores (run 270: L1-73 2.60 -> 1.38 ms)
    assert "tconv_grouped_mma_grad_weight_kernel" in tf32, tf32
    assert "tconv_grouped_forward_kernel" not in tf32, tf32
    forced = kernel_names(32, 4, "grouped_mma")
    assert len([n for n in forced if "tconv_grouped_mma_" in n]) == 3, forced  # forward, grad_input, grad_weight
    assert any("tconv_grouped_mma_grad_weight_kernel" in n for n in forced), forced
    assert not any("tconv_grouped" in n for n in kernel_names(32, 1))


def test_auto_picks_grouped_mma_forward_for_two_n8_tiles():
    """fam09's channel pattern (8 in x 16 out per group): "auto" runs the forward on the tensor-core grouped
    kernel (run 78: 1.67 -> 0.87 ms TF32; bf16 in the lines form, run 264: 0.72 -> 0.66) and grad_input on the
    FFMA one."""
    def kernel_names(dtype):
        x = torch.rand(2, 32, 6, 9, device="cuda", dtype=dtype, requires_grad=True)
        w = torch.rand(32, 16, 3, 5, device="cuda", dtype=dtype, requires_grad=True)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = tconv.conv_transpose2d(x, w, None, (2, 3), (1, 2), 0, 4, (2, 1))
            out.backward(torch.ones_like(out))
            torch.cuda.synchronize()
        return " ".join(e.name for e in prof.events())
    names = kernel_names(torch.float32)
    assert "tconv_grouped_mma_" in names and "tconv_grouped_grad_input_kernel" in names, names
    assert "tconv_grouped_forward_kernel" not in names, names
    names16 = kernel_names(torch.bfloat16)
    assert "tconv_grouped_mma_lines_kernel" in names16 and "tconv_grouped_forward_kernel" not in names16, names16
    assert "tconv_grouped_grad_input_kernel" in names16, names16
    # grad_weight on tensor cores in both (run 270, fam09: TF32 1.33 -> 0.65 ms, bf16 2.24 -> 0.61)
    assert "tconv_grouped_mma_grad_weight_kernel" in names and "tconv_grouped_mma_grad_weight_kernel" in names16
    with precision("fp32"):  # 3xTF32 with two n8 tiles: also faster (fam09 1.34 -> 1.00)
        assert "tconv_grouped_mma_grad_weight_kernel" in kernel_names(torch.float32)


@pytest.mark.parametrize("mode", ["tf32", "fp32", "bf16"])
def test_auto_picks_grouped_lines_forward(mode):
    """The lines form's forward under "auto" (run 267, H200): L1-72's pattern (8 x 8 per group, 3x5x7 kernel at
    stride 2: 13 taps per output) in every mode (TF32 0.53 -> 0.31 ms, 3xTF32 0.53 -> 0.47, bf16 0.56 -> 0.32);
    L1-73's (3.4 taps per output) in TF32 and bf16 (1.28 -> 1.09, 1.36 -> 0.97) but not in 3xTF32 (1.29 against
    1.45: the FFMA kernel)."""
    dtype = dtype_of(mode)

    def forward_names(kernel, padding):
        x = torch.rand(1, 32, 3, 5, 8, device="cuda").to(dtype)
        w = torch.rand(32, 8, *kernel, device="cuda").to(dtype)
        with precision(mode), torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            tconv.conv_transpose3d(x, w, None, 2, padding, 1, 4)
            torch.cuda.synchronize()
        return " ".join(e.name for e in prof.events())
    l1_72 = forward_names((3, 5, 7), (1, 2, 3))
    assert "tconv_grouped_mma_lines_kernel" in l1_72, l1_72
    l1_73 = forward_names((3, 3, 3), 1)
    if mode == "fp32":
        assert "tconv_grouped_forward_kernel" in l1_73 and "tconv_grouped_mma_" not in l1_73, l1_73
    else:
        assert "tconv_grouped_mma_lines_kernel" in l1_73, l1_73


@pytest.mark.parametrize("mode", ["tf32", "bf16", "fp16"])
def test_auto_picks_grouped_lines_grad_input(mode):
    """grad_input under "auto" (run 272, H200): the lines form on 16-bit data with many taps per output (L1-72's 13:
    fwd+bwd 1.347 -> 1.209 ms in bf16), the FFMA kernel with fp32 data (L1-72 TF32: 1.320 against 2.220) and with few
    taps (L1-73's 3.4, bf16: 3.929 against 4.832)."""
    dtype = dtype_of(mode)

    def backward_names(kernel, padding):
        x = torch.rand(1, 32, 3, 5, 8, device="cuda").to(dtype).requires_grad_()
        w = torch.rand(32, 8, *kernel, device="cuda").to(dtype)
        out = tconv.conv_transpose3d(x, w, None, 2, padding, 1, 4)
        with precision(mode), torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            torch.autograd.grad(out, x, torch.ones_like(out))
            torch.cuda.synchronize()
        return " ".join(e.name for e in prof.events())
    l1_72 = backward_names((3, 5, 7), (1, 2, 3))
    l1_73 = backward_names((3, 3, 3), 1)
    assert "tconv_grouped_grad_input_kernel" in l1_73 and "tconv_grouped_mma_lines_kernel" not in l1_73, l1_73
    if mode == "tf32":
        assert "tconv_grouped_grad_input_kernel" in l1_72 and "tconv_grouped_mma_lines_kernel" not in l1_72, l1_72
    else:
        assert "tconv_grouped_mma_lines_kernel" in l1_72 and "tconv_grouped_grad_input_kernel" not in l1_72, l1_72


# The tensor-core grouped kernels' "lines" form (conv_transpose_grouped_mma.cu: a block stages the src lines of a
# tile of dst rows in shared memory). Several H tiles with a partial last one, D walks of one and two lines, H
# stride and dilation (grad_input reads strided lines), 8 x 16 channels (two n8 tiles), and each copy path:
# 16-byte cp.async (contiguous W of 16-byte multiples, row_padded), 4-byte (misaligned fp32) and element
# loads (channels_last, misaligned 16-bit).
GROUPED_LINES_CASES = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (3, 2, 32, 32, 4, [3, 3, 3], [2, 2, 2], [1, 1, 1], [0, 0, 0], [1, 1, 1], [4, 12, 20], True),     # L1-73-like
    (3, 1, 32, 32, 4, [3, 5, 7], [2, 2, 2], [1, 2, 3], [1, 1, 1], [1, 1, 1], [3, 10, 12], False),    # L1-72-like
    (2, 2, 16, 16, 2, [3, 5], [3, 2], [2, 1], [1, 0], [2, 3], [11, 21], True),
    (2, 1, 32, 64, 4, [3, 5], [2, 3], [1, 2], [0, 2], [2, 1], [13, 20], True),                     # fam09-like
    (1, 2, 24, 12, 3, [5], [1], [2], [0], [3], [70], True),
]


@pytest.mark.parametrize("mode", ["tf32", "fp32", "bf16", "fp16"])
@pytest.mark.parametrize("layout", ["contiguous", "row_padded", "misaligned", "channels_last"])
@pytest.mark.parametrize("case", GROUPED_LINES_CASES, ids=[f"gl{i}" for i in range(len(GROUPED_LINES_CASES))])
def test_grouped_mma_lines(case, layout, mode, poison_allocator):
    run_case(*case, mode=mode, layout=layout, seed=zlib.crc32(f"{case}{layout}{mode}gl".encode()) % 10000,
             poison=poison_allocator, algorithm="grouped_mma")


# TCONV_GROUPED_MMA_POSITION_VECTORS (development; unset 1): 1 stages a channels-last source's group channels by
# 16-byte vectors, a lane per position (stage_src_lines), where 0 reads them element by element. The staged lines are
# the same values in the same places, so every pass agrees bit for bit across the switch; under 1 each 2D / 3D lines
# case meets the contract channels-last (the 1D case stays contiguous: the switch has nothing to take there). Cases:
# whole 16-byte groups on both sides (L1-73-, L1-72-like, 8 x 8), 8 x 16 (fam09-like: two vectors a grad_output
# position), and 8 x 8 at stride 3 x 2 with dilation.
@pytest.mark.parametrize("mode", ["bf16", "tf32"])
def test_grouped_mma_position_vectors_switch(tmp_path, mode):
    code = f"""
import sys, torch, tconv
import test_conv_transpose_gpu as t
from test_conv_transpose_gpu import run_case
from test_gather_tma_gpu import seeded_channels_last_pass
from conftest import poison_cuda_allocator
mode = {mode!r}
dtype = torch.bfloat16 if mode == "bf16" else torch.float32
switch_on = __import__("os").environ["TCONV_GROUPED_MMA_POSITION_VECTORS"] == "1"
results = []
for i, case in enumerate(t.GROUPED_LINES_CASES):
    if case[0] == 1:
        continue
    if switch_on:
        run_case(*case, mode=mode, layout="channels_last", seed=320 + i, poison=poison_cuda_allocator,
                 algorithm="grouped_mma")
    out, grads, _ = seeded_channels_last_pass(case, dtype, "grouped_mma", 60 + i, grad_weight=True)
    results.append([out, *grads])
torch.save(results, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_GROUPED_MMA_POSITION_VECTORS", values=("1", "0"))
    assert len(saved["1"]) == len([c for c in GROUPED_LINES_CASES if c[0] > 1])
    for i, (on, off) in enumerate(zip(saved["1"], saved["0"])):
        assert_bitwise_equal(on, off, f"case {i}")


# The dense grouped grad_input (tconv/_grouped_dense.py; TCONV_GROUPED_DENSE_GRAD_INPUT=0 turns it off): under "auto" a
# 16-bit channels-last grouped call of at most 16 channels a group runs grad_input as the dense call on the
# block-diagonal weight where that call runs on a persistent grid. Each lines case, bf16 channels-last: the contract
# under 1, and grad_input's kernels: a grouped kernel under 0; under 1 another list exactly where the rule takes the
# case (a dense call of at most 16 channels may itself take a grouped kernel, of other widths), the same list
# elsewhere. The rule must take L1-73's own shape on Hopper (run 520: 1.134 -> 0.607 ms there).
def test_grouped_dense_grad_input_switch(tmp_path):
    code = """
import sys, torch, tconv
import test_conv_transpose_gpu as t
from test_conv_transpose_gpu import run_case
from test_gather_tma_gpu import seeded_channels_last_pass
from conftest import poison_cuda_allocator
switch_on = __import__("os").environ["TCONV_GROUPED_DENSE_GRAD_INPUT"] == "1"
results = []
for i, case in enumerate(t.GROUPED_LINES_CASES):
    layout = "channels_last" if case[0] > 1 else "contiguous"
    if switch_on:
        run_case(*case, mode="bf16", layout=layout, seed=340 + i, poison=poison_cuda_allocator, algorithm="auto")
    _, _, (_, backward) = seeded_channels_last_pass(case, torch.bfloat16, "auto", 80 + i, by_pass=True)
    results.append((t.dense_grad_input_taken_for(case), backward))
l1_73 = (3, 4, 32, 32, 4, [3, 3, 3], [2, 2, 2], [1, 1, 1], [0, 0, 0], [1, 1, 1], [32, 64, 128], False)
torch.save((results, t.dense_grad_input_taken_for(l1_73)), sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_GROUPED_DENSE_GRAD_INPUT", values=("1", "0"))
    (on_cases, l1_73_on), (off_cases, l1_73_off) = saved["1"], saved["0"]
    assert len(on_cases) == len(GROUPED_LINES_CASES) and not l1_73_off
    for i, ((taken, on), (taken_off, off)) in enumerate(zip(on_cases, off_cases)):
        assert not taken_off and any("tconv_grouped_" in n for n in off), (i, off)
        assert (on != off) == taken, (i, taken, on, off)
    if torch.cuda.get_device_capability()[0] == 9:
        assert l1_73_on


def dense_grad_input_taken_for(case, dtype=torch.bfloat16) -> bool:
    """Whether "auto" runs `case`'s grad_input dense (tconv/_ops.py's rule), for its channels-last tensors."""
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    fmt = {1: torch.contiguous_format, 2: torch.channels_last, 3: torch.channels_last_3d}[dims]
    weight = torch.empty(cin, cout // groups, *kernel, device="cuda", dtype=dtype)
    out_shape = tconv._args.output_shape((batch, cin, *spatial), weight.shape, stride, padding, output_padding,
                                         dilation, groups)
    grad_output = torch.empty(out_shape, device="cuda", dtype=dtype).contiguous(memory_format=fmt)
    grad_input = torch.empty(batch, cin, *spatial, device="cuda", dtype=dtype).contiguous(memory_format=fmt)
    return tconv._ops._grad_input_dense_taken(grad_output, weight, grad_input, stride, padding, dilation, groups)


def test_grouped_mma_lines_kernel_runs():
    """Forced "grouped_mma" runs the lines form for both gather passes of an L1-73-like call."""
    x = torch.rand(1, 32, 4, 6, 8, device="cuda", requires_grad=True)
    w = torch.rand(32, 8, 3, 3, 3, device="cuda", requires_grad=True)
    with tconv._ops.use_algorithm("grouped_mma"), \
            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = tconv.conv_transpose3d(x, w, None, 2, 1, 0, 4)
        out.backward(torch.ones_like(out))
        torch.cuda.synchronize()
    names = [e.name for e in prof.events() if "tconv_grouped_mma_" in e.name and "grad_weight" not in e.name]
    if os.environ.get("TCONV_GROUPED_MMA_LINES", "1") == "0":
        assert names and all("tconv_grouped_mma_kernel" in n for n in names), names
    else:
        assert len({n for n in names if "tconv_grouped_mma_lines_kernel" in n}) == 2, names


# Runs after `import os`, the switch set in os.environ and `out_path` defined
# (test_grouped_mma_lines_switches_bit_identical).
_LINES_SWITCH_CODE = (
    "import torch, tconv\n"
    "from tconv.harness.precision import precision_mode\n"
    "results = []\n"
    "for kernel, padding, op, spatial in [((3, 5, 7), (1, 2, 3), 1, (3, 10, 12)), ((3, 3, 3), (1, 1, 1), 0, (3, 10, 70))]:\n"
    "    for mode, dtype in [('tf32', torch.float32), ('bf16', torch.bfloat16)]:\n"
    "        torch.manual_seed(0)\n"
    "        x = torch.randn(2, 32, *spatial, device='cuda').to(dtype).requires_grad_()\n"
    "        w = torch.randn(32, 8, *kernel, device='cuda').to(dtype)\n"
    "        with precision_mode(mode), tconv._ops.use_algorithm('grouped_mma'):\n"
    "            y = tconv.conv_transpose3d(x, w, None, 2, padding, op, 4)\n"
    "            dy = torch.randn_like(y)\n"
    "            gx, = torch.autograd.grad(y, x, dy)\n"
    "            gw = tconv._ops.conv_transpose_grad_weight(dy, x.detach(), list(w.shape), [2] * 3, list(padding), [1] * 3, 4)\n"
    "        results += [y.detach().cpu(), gx.cpu(), gw.cpu()]\n"
    "torch.save(results, out_path)\n")


@pytest.mark.parametrize("switch", ["TCONV_GROUPED_MMA_LINES_BALANCED=0", "TCONV_GROUPED_MMA_LINES_OCCUPANCY=0"])
def test_grouped_mma_lines_switches_bit_identical(switch, tmp_path):
    """The lines form's development switches change no bit of its forward or grad_input: each output sums the same
    products in the same order, whichever warp or block runs it. BALANCED=0 deals the tasks in order; OCCUPANCY=0
    sizes the grid from the shared-memory estimate of resident blocks, not the runtime's count. L1-72's pattern (one
    round of tasks per tile) and L1-73's with two W stretches per row (two rounds, the staged store), TF32 and bf16,
    with the tensor-core grad_weight alongside. Development switches are read once per process, hence fresh
    interpreters."""
    name, value = switch.split("=")
    paths = {"default": tmp_path / "default.pt", "switched": tmp_path / "switched.pt"}
    for run, path in paths.items():
        setting = f"os.environ[{name!r}] = {value!r}\n" if run == "switched" else ""
        _run_isolated(f"import os\n{setting}out_path = {str(path)!r}\n" + _LINES_SWITCH_CODE)
    default, switched = torch.load(paths["default"]), torch.load(paths["switched"])
    assert len(default) == len(switched) == 12
    for a, b in zip(default, switched):
        assert torch.equal(a, b), (a - b).abs().max()


# ---- grouped grad_weight (conv_transpose_grouped.cu tconv_grouped_grad_weight_kernel) ----

def tconv_grad_weight(algorithm, grad, x, weight_shape, stride, padding, dilation, groups):
    with tconv._ops.use_algorithm(algorithm):
        return tconv._ops.conv_transpose_grad_weight(grad, x, list(weight_shape), list(stride), list(padding),
                                                     list(dilation), groups)


def check_grouped_grad_weight(case, mode, layout, seed, poison, algorithm="grouped"):
    """Forced "grouped" (or "grouped_mma") grad_weight against float64 torch (the precision contract's rule, with
    torch's own grad_weight in the same dtype as the yardstick) and, for "grouped" in fp32, against the direct
    kernel (both FFMA with fp32 sums, different order). Poisoned memory before each call: every element written."""
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    gen = torch.Generator(device="cuda").manual_seed(seed)
    dtype = dtype_of(mode)
    x = make_tensor([batch, cin, *spatial], dtype, layout, gen)
    weight_shape = [cin, cout // groups, *kernel]
    w = torch.randn(weight_shape, generator=gen, device="cuda").to(dtype)
    args = (stride, padding, output_padding, groups, dilation)
    out_shape = tconv._args.output_shape(x.shape, w.shape, stride, padding, output_padding, dilation, groups)
    grad = make_tensor(list(out_shape), dtype, layout, gen)
    with precision(mode):
        if poison:
            poison()
        got = tconv_grad_weight(algorithm, grad, x, weight_shape, stride, padding, dilation, groups)
        w_same = w.clone().requires_grad_()
        torch_same = torch.autograd.grad(TORCH_FN[dims](x, w_same, None, *args), w_same, grad)[0]
    w64 = w.double().requires_grad_()
    ref64 = torch.autograd.grad(TORCH_FN[dims](x.double(), w64, None, *args), w64, grad.double())[0]
    ideal = None
    if mode == "tf32":
        rw = round_to_tf32(w).requires_grad_()
        ideal = torch.autograd.grad(TORCH_FN[dims](round_to_tf32(x), rw, None, *args), rw, round_to_tf32(grad))[0]
    check_close(f"grad_weight ({algorithm})", got, ref64, torch_same, mode, ideal)
    if algorithm == "grouped" and mode in ("fp32", "tf32"):
        if poison:
            poison()
        with precision(mode):
            direct = tconv_grad_weight("direct", grad, x, weight_shape, stride, padding, dilation, groups)
        # Two fp32 summation orders of the same products differ by a few ulps of the sum of |products|
        # (run 19: 1e-5 absolute failed on sums of thousands of terms with that relative size 1e-7).
        w_abs = w.double().abs().requires_grad_()
        abs_sum = torch.autograd.grad(TORCH_FN[dims](x.double().abs(), w_abs, None, *args), w_abs, grad.double().abs())[0]
        excess = (got.double() - direct.double()).abs() - (8 * 2.0 ** -24 * abs_sum + 1e-7)
        assert excess.max().item() <= 0, f"grouped vs direct grad_weight: {excess.max().item():.3g} over the bound"
    return got


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("layout", ["contiguous", "channels_last", "strided"])
@pytest.mark.parametrize("case", GRID + GROUPED_GRID, ids=[f"g{i}" for i in range(len(GRID))] +
                         [f"gg{i}" for i in range(len(GROUPED_GRID))])
def test_grouped_grad_weight_grid(case, layout, mode, poison_allocator):
    if not grouped_supported(case, mode):
        pytest.skip("not a grouped-kernel shape")
    check_grouped_grad_weight(case, mode, layout, zlib.crc32(f"{case}{layout}{mode}gw".encode()) % 10000,
                              poison_allocator)


@pytest.mark.parametrize("seed", range(120))
def test_grouped_grad_weight_random(seed, poison_allocator):
    rng = random.Random(9000 + seed)
    case = random_grouped_config(rng)
    mode = MODES[seed % 4]
    if not grouped_supported(case, mode):
        pytest.skip("not a grouped-kernel shape")
    layout = ["contiguous", "channels_last", "strided"][(seed // 4) % 3]
    check_grouped_grad_weight(case, mode, layout, seed, poison_allocator)


@pytest.mark.parametrize("case", [GROUPED_GRID[0], GROUPED_GRID[1], GROUPED_GRID[3], GRID[10]],
                         ids=["gg0", "gg1", "gg3", "g10"])
def test_grouped_grad_weight_deterministic(case):
    """Split-K with partial sums added in a fixed order: two runs are bit-identical."""
    got = [check_grouped_grad_weight(case, "fp32", "contiguous", 11, None) for _ in range(2)]
    assert torch.equal(got[0], got[1])


@pytest.mark.parametrize("algorithm", ["grouped", "grouped_mma"])
@pytest.mark.parametrize("dims", [1, 2, 3])
def test_grouped_grad_weight_batch_zero(dims, algorithm, poison_allocator):
    """No positions to reduce: grad_weight is zeros (written, not left poisoned)."""
    x = torch.rand(0, 8, *([4] * dims), device="cuda")
    grad = torch.rand(0, 8, *([7] * dims), device="cuda")
    poison_allocator()
    got = tconv_grad_weight(algorithm, grad, x, [8, 4, *([3] * dims)], [2] * dims, [1] * dims, [1] * dims, 2)
    assert torch.equal(got, torch.zeros_like(got))


# grad_weight on tensor cores (conv_transpose_grouped_mma.cu tconv_grouped_mma_grad_weight_kernel; forced by
# "grouped_mma"). The lines cases above and the grouped grids run it through autograd; these add tiles per block
# (a mid-sized L1-73 pattern: 240 grad_output tiles), partial H tiles, 16 x 16 channels, W phases with 4 taps and
# a 5-tap phase split over two items (W stride 1, kernel 5), and bit-identical reruns.
GROUPED_MMA_GRAD_WEIGHT_CASES = [
    (3, 2, 32, 32, 4, [3, 3, 3], [2, 2, 2], [1, 1, 1], [0, 0, 0], [1, 1, 1], [8, 32, 64], False),   # L1-73 pattern
    (3, 2, 32, 32, 4, [3, 5, 7], [2, 2, 2], [1, 2, 3], [1, 1, 1], [1, 1, 1], [4, 9, 20], False),    # L1-72 pattern
    (2, 3, 32, 64, 2, [3, 5], [1, 1], [1, 2], [0, 0], [1, 2], [19, 45], False),                     # 16 x 16, 5 taps
    (2, 2, 32, 64, 4, [3, 5], [2, 3], [1, 2], [0, 2], [2, 1], [13, 37], False),                     # fam09 pattern
]


@pytest.mark.parametrize("mode", ["fp32", "tf32", "bf16"])
@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
@pytest.mark.parametrize("case", GROUPED_MMA_GRAD_WEIGHT_CASES,
                         ids=[f"gmw{i}" for i in range(len(GROUPED_MMA_GRAD_WEIGHT_CASES))])
def test_grouped_mma_grad_weight(case, layout, mode, poison_allocator):
    check_grouped_grad_weight(case, mode, layout, zlib.crc32(f"{case}{layout}{mode}gmw".encode()) % 10000,
                              poison_allocator, algorithm="grouped_mma")


@pytest.mark.parametrize("mode", ["tf32", "fp32"])
def test_grouped_mma_grad_weight_deterministic(mode):
    """Blocks' sums as splits added in a fixed order, one warp per tap within a block: bit-identical reruns."""
    case = GROUPED_MMA_GRAD_WEIGHT_CASES[0]
    got = [check_grouped_grad_weight(case, mode, "contiguous", 13, None, algorithm="grouped_mma") for _ in range(2)]
    assert torch.equal(got[0], got[1])


@pytest.mark.parametrize("parts,balanced,deinterleave,occupancy",
                         [(2, 1, 0, 1), (3, 0, 1, 1), (1, 1, 1, 1), (1, 0, 1, 1), (1, 0, 0, 1), (1, 1, 0, 0)])
def test_grouped_mma_grad_weight_item_switches(parts, balanced, deinterleave, occupancy):
    """TCONV_GROUPED_MMA_GRAD_WEIGHT_JPARTS / _BALANCED / _DEINTERLEAVE / _OCCUPANCY (development switches, read once
    per process, so in a fresh interpreter): j parts with their own tap sums, the balanced item order, grad_output rows
    staged by W phase and the grid from the shared-memory estimate (OCCUPANCY=0: more splits on the 240-tile L1-73
    pattern) agree with float64 in TF32 and 3xTF32, bit-identically on reruns."""
    out = _run_isolated(
        "import os\n"
        f"os.environ['TCONV_GROUPED_MMA_GRAD_WEIGHT_JPARTS'] = '{parts}'\n"
        f"os.environ['TCONV_GROUPED_MMA_GRAD_WEIGHT_BALANCED'] = '{balanced}'\n"
        f"os.environ['TCONV_GROUPED_MMA_GRAD_WEIGHT_DEINTERLEAVE'] = '{deinterleave}'\n"
        f"os.environ['TCONV_GROUPED_MMA_GRAD_WEIGHT_OCCUPANCY'] = '{occupancy}'\n"
        "import torch, tconv\n"
        "from tconv.harness.precision import precision_mode\n"
        "torch.manual_seed(0)\n"
        "bf16, cl = torch.bfloat16, torch.channels_last_3d\n"
        "for shape, kernel, padding, op, mode, dtype in [((2, 32, 5, 9, 20), (3, 3, 3), (1, 1, 1), 0, 'tf32', torch.float32),\n"
        "                                               ((2, 32, 8, 32, 64), (3, 3, 3), (1, 1, 1), 0, 'tf32', torch.float32),\n"
        "                                               ((1, 32, 3, 5, 9), (3, 5, 7), (1, 2, 3), 1, 'fp32', torch.float32),\n"
        "                                               ((2, 32, 3, 7, 11), (3, 3, 3), (1, 1, 1), 1, 'tf32', bf16)]:\n"
        "    x = torch.randn(*shape, device='cuda').to(dtype).double()\n"
        "    w = torch.randn(32, 8, *kernel, device='cuda', dtype=torch.float64, requires_grad=True)\n"
        "    y = torch.nn.functional.conv_transpose3d(x, w, None, 2, padding, op, 4)\n"
        "    dy = torch.randn_like(y).to(dtype).double()\n"
        "    ref = torch.autograd.grad(y, w, dy)[0]\n"
        "    xs, dys = x.to(dtype), dy.to(dtype)\n"
        "    if dtype == bf16:  # channels_last: element loads into the staged lines\n"
        "        xs, dys = xs.contiguous(memory_format=cl), dys.contiguous(memory_format=cl)\n"
        "    with precision_mode(mode), tconv._ops.use_algorithm('grouped_mma'):\n"
        "        got = [tconv._ops.conv_transpose_grad_weight(dys, xs, list(w.shape), [2] * 3,\n"
        "                                                     list(padding), [1] * 3, 4) for _ in range(2)]\n"
        "    assert torch.equal(got[0], got[1])\n"
        "    err = ((got[0].double() - ref).abs().max() / ref.abs().max()).item()\n"
        "    assert err < {'tf32': 2e-3, 'fp32': 1e-6}[mode] * (8 if dtype == bf16 else 1), (mode, dtype, err)\n"
        "    print(mode, dtype, 'error', err)\n")
    assert out.count("error") == 4, out


def test_grouped_mma_grad_weight_kernel_runs():
    x = torch.rand(1, 32, 4, 6, 8, device="cuda")
    grad = torch.rand(1, 32, 7, 11, 15, device="cuda")
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        tconv_grad_weight("grouped_mma", grad, x, [32, 8, 3, 3, 3], [2] * 3, [1] * 3, [1] * 3, 4)
        torch.cuda.synchronize()
    assert any("tconv_grouped_mma_grad_weight_kernel" in e.name for e in prof.events())


def test_grouped_grad_weight_large_problem_matches_direct():
    """The L1-73 channel pattern on a mid-sized input: many stages per split, several W tiles."""
    case = (3, 2, 32, 32, 4, [3, 3, 3], [2, 2, 2], [1, 1, 1], [0, 0, 0], [1, 1, 1], [6, 20, 70], False)
    check_grouped_grad_weight(case, "fp32", "contiguous", 5, None)
    check_grouped_grad_weight(case, "bf16", "channels_last", 6, None)


def test_forced_grouped_grad_weight_refuses_large_dilated_taps():
    """Within grouped_supported (16 x 1 channels, 49 taps) but one position's dilated 7x7 taps need
    16 x 49 x 49 grad_output values of shared memory: forced "grouped" raises a clear error."""
    out = _run_isolated(
        "import torch, tconv\n"
        "x = torch.rand(1, 1, 2, 2, device='cuda'); grad = torch.rand(1, 16, 50, 50, device='cuda')\n"
        "try:\n"
        "    with tconv._ops.use_algorithm('grouped'):\n"
        "        tconv._ops.conv_transpose_grad_weight(grad, x, [1, 16, 7, 7], [1, 1], [0, 0], [8, 8], 1)\n"
        "except RuntimeError as error:\n"
        "    print('raised:', str(error).splitlines()[0])\n")
    assert "raised:" in out and "grouped" in out and "grad_weight" in out


# grad_input's strip kernel (conv_transpose_igemm.cu, strip_grad_input; Hopper, TF32 mode, and fp16/bf16 data on k16
# MMAs, or widened to fp32 in the kernel under TCONV_STRIP_GRAD_INPUT_16BIT=1, off under =0): W stride 8, 16 and 32
# with T = 1, 2 and 4 whole strides per W kernel (channels per stage 4, 2, 1), against float64 and cuDNN in the
# same mode, with every gradient checked. C_in over several 128-channel tiles with a partial one, C_out not a
# multiple of a stage's channels, positions over several 256-wide tiles with a partial one, padding 0 and beyond
# a stride, output_padding, 2D (H lines), and a batch of 0. grad_weight takes its strip kernel (under "auto" and
# "igemm_strip") where the input's W is a multiple of 4: every case but s1 and s2.
STRIP_GRID = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (1, 2, 72, 40, 1, [16], [8], [4], [0], [1], [300], True),
    (1, 1, 200, 5, 1, [8], [8], [0], [0], [1], [257], False),
    (1, 2, 130, 9, 1, [32], [8], [12], [4], [1], [70], True),
    (1, 2, 64, 24, 1, [16], [16], [8], [0], [1], [40], True),
    (1, 1, 48, 12, 1, [32], [16], [4], [8], [1], [33], False),
    (1, 2, 40, 6, 1, [32], [32], [16], [0], [1], [20], True),
    (2, 2, 72, 20, 1, [1, 16], [1, 8], [0, 4], [0, 0], [1, 1], [3, 60], True),
    (1, 0, 72, 20, 1, [16], [8], [4], [0], [1], [32], True),
    # grad_input: three 128-channel C_in tiles (a partial one) with a partial stage (6 channels at 4 a stage).
    # grad_weight (input W a multiple of 4): three 128-channel N tiles (a partial one) and one partial M tile
    # (6 channels x 8 taps). T = 4 with 9 channels and positions past a line's last chunk; s = 16 with T = 2 and
    # output_padding.
    (1, 2, 300, 6, 1, [8], [8], [0], [0], [1], [68], True),
    (1, 2, 40, 9, 1, [32], [8], [12], [4], [1], [72], False),
    (1, 1, 24, 12, 1, [32], [16], [4], [8], [1], [36], True),
]


STRIP_GRAD_INPUT_16BIT = os.environ.get("TCONV_STRIP_GRAD_INPUT_16BIT", "2") not in ("", "0")


@pytest.mark.parametrize("mode", ["tf32", "fp16", "bf16"])
@pytest.mark.parametrize("case", STRIP_GRID, ids=[f"s{i}" for i in range(len(STRIP_GRID))])
def test_strip_grad_input(case, mode, poison_allocator):
    if not wgmma_kernels_run():
        pytest.skip("the strip kernel runs on sm_90a builds on compute capability 9.0")
    for algorithm in ("igemm_strip", "auto") if mode == "tf32" or STRIP_GRAD_INPUT_16BIT else ("auto",):
        run_case(*case, mode=mode, layout="contiguous", seed=zlib.crc32(f"{case}{mode}strip".encode()) % 10000,
                 poison=poison_allocator, algorithm=algorithm)


def test_strip_backward_16bit_forms(tmp_path):
    """The strip grad_input's and grad_weight's 16-bit forms, one process each (TCONV_STRIP_GRAD_INPUT_16BIT and
    TCONV_STRIP_GRAD_WEIGHT_16BIT are read once): 2 runs k16 MMAs on the values as they are (grad_input's default),
    1 widens them to fp32 for TF32 MMAs, and grad_weight's 3 (its default) keeps its A M-major. Every (s, T) the
    kernels take (s 8 with T 1, 2 and 4; s 16 with T 1 and 2; s 32 with
    T 1), in fp16 and bf16, with C_in over two 128-channel tiles (a partial one), C_out 9 (a partial stage or row tile
    in both forms), positions over two 256-wide tiles (grad_input) and many 16-position chunks (grad_weight), and
    paddings that put the 16-byte strip rows on 8-byte boundaries. Both forms against float64 on the same inputs
    (products exact, sums in fp32, one rounding at the store), and each form's instantiation runs (the kernels'
    template tails: grad_input's kK16, grad_weight's kXByChannel, kK16, kAMajorM)."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    code = (
        "import sys, torch, tconv\n"
        "results = {}\n"
        "for dtype in (torch.float16, torch.bfloat16):\n"
        "    for s, k, p in ((8, 8, 4), (8, 16, 4), (8, 32, 12), (16, 16, 8), (16, 32, 4), (32, 32, 16)):\n"
        "        gen = torch.Generator(device='cuda').manual_seed(1000 * s + k)\n"
        "        x = torch.randn(2, 130, 300, device='cuda', generator=gen).to(dtype).requires_grad_()\n"
        "        w = torch.randn(130, 9, k, device='cuda', generator=gen).to(dtype).requires_grad_()\n"
        "        with tconv._ops.use_algorithm('igemm_strip'), \\\n"
        "                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:\n"
        "            out = tconv.conv_transpose1d(x, w, None, s, p)\n"
        "            grad = torch.randn(out.shape, device='cuda', generator=gen).to(dtype)\n"
        "            grads = torch.autograd.grad(out, [x, w], grad)\n"
        "            torch.cuda.synchronize()\n"
        "        names = [[e.name for e in prof.events() if f'strip_grad_{which}_kernel' in e.name]\n"
        "                 for which in ('input', 'weight')]\n"
        "        x64, w64 = (t.detach().double().cpu().requires_grad_() for t in (x, w))\n"
        "        references = torch.autograd.grad(torch.nn.functional.conv_transpose1d(x64, w64, None, s, p),\n"
        "                                         [x64, w64], grad.double().cpu())\n"
        "        results[(str(dtype), s, k)] = ([g.cpu() for g in grads], references, names)\n"
        "torch.save(results, sys.argv[1])\n")
    forms = (("TCONV_STRIP_GRAD_INPUT_16BIT", 0, {"1": ", false>(", "2": ", true>("}),
             ("TCONV_STRIP_GRAD_WEIGHT_16BIT", 1, {"1": ", false, false, false>(", "2": ", false, true, false>(",
                                                   "3": ", false, true, true>("}))
    for switch, which, tails in forms:
        saved = run_under_switch(code, tmp_path, switch, values=tuple(tails), timeout=600)
        for form, tail in tails.items():
            for (dtype, s, k), (grads, references, names) in saved[form].items():
                label = f"{switch}={form} {dtype} s{s} k{k}"
                assert len(names[which]) == 1, (label, names)
                assert tail in names[which][0], (label, names)
                ulp = 2.0 ** -8 if "bfloat16" in dtype else 2.0 ** -11
                for grad, reference in zip(grads, references):
                    error = (grad.double() - reference).abs()
                    bound = ulp * reference.abs() + 1e-4 * reference.abs().max()
                    assert bool((error <= bound).all()), (label, error.max().item(), reference.abs().max().item())
                    assert reference.abs().max() > 0


# grad_weight's strip kernel on fp16/bf16 data (x and grad_output pieces copied as they are; k16 MMAs on them, or
# under TCONV_STRIP_GRAD_WEIGHT_16BIT=1 widened to fp32 in the kernel's slots, TF32 MMAs on exact values), forced by
# "igemm_strip" through the grad_weight op alone (so that the
# kernel is checked by name; test_strip_grad_input runs it within whole backwards): STRIP_GRID's cases whose input W
# is a multiple of 4, against float64 and torch's
# grad_weight in the same dtype, into poisoned memory; the kernel ran (but at batch 0: no positions, zeros written)
# unless TCONV_STRIP_GRAD_WEIGHT_16BIT=0.
STRIP_GRAD_WEIGHT_16BIT = os.environ.get("TCONV_STRIP_GRAD_WEIGHT_16BIT", "2") not in ("", "0")
STRIP_GRID_W4 = [case for case in STRIP_GRID if case[10][-1] % 4 == 0]


@pytest.mark.parametrize("mode", ["fp16", "bf16"])
@pytest.mark.parametrize("case", STRIP_GRID_W4, ids=[f"w{i}" for i in range(len(STRIP_GRID_W4))])
def test_strip_grad_weight_16bit(case, mode, poison_allocator):
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    gen = torch.Generator(device="cuda").manual_seed(zlib.crc32(f"{case}{mode}sgw".encode()) % 10000)
    dtype = dtype_of(mode)
    x = make_tensor([batch, cin, *spatial], dtype, "contiguous", gen)
    weight_shape = [cin, cout // groups, *kernel]
    args = (stride, padding, output_padding, groups, dilation)
    out_shape = tconv._args.output_shape(x.shape, torch.Size(weight_shape), stride, padding, output_padding,
                                         dilation, groups)
    grad = make_tensor(list(out_shape), dtype, "contiguous", gen)
    poison_allocator()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        got = tconv_grad_weight("igemm_strip", grad, x, weight_shape, stride, padding, dilation, groups)
        torch.cuda.synchronize()
    data = {"fp16": "__half", "bf16": "__nv_bfloat16"}[mode]
    ran = any(f"strip_grad_weight_kernel<{data}," in n for n in grad_weight_kernel_names(prof))
    assert ran == (STRIP_GRAD_WEIGHT_16BIT and batch > 0), grad_weight_kernel_names(prof)
    w_same = torch.zeros(weight_shape, dtype=dtype, device="cuda", requires_grad=True)
    torch_same = torch.autograd.grad(TORCH_FN[dims](x, w_same, None, *args), w_same, grad)[0]
    w64 = torch.zeros(weight_shape, dtype=torch.float64, device="cuda", requires_grad=True)
    ref64 = torch.autograd.grad(TORCH_FN[dims](x.double(), w64, None, *args), w64, grad.double())[0]
    check_close("grad_weight", got, ref64, torch_same, mode)


# The forward's strip kernel (strip_forward; Hopper, TF32 mode) takes any W stride with T = 1, 2 or 4 whole strides
# per W kernel and any strides of x and y; "auto" takes it at W strides that are multiples of 8 (STRIP_GRID above
# runs it there, with every gradient), "igemm_strip" wherever it can run. Forward only, since grad_input's strip
# kernel refuses these strides: W strides 5, 3, 7 and 1 (128-row M tiles across channels), partial M tiles and
# partial K stages, several 256-row N tiles, odd padding and output_padding, strided, misaligned and channels_last
# inputs.
STRIP_FORWARD_GRID = [
    # dims, batch, cin, cout, kernel, stride, padding, output_padding, spatial, bias, layout
    (1, 2, 40, 20, [10], [5], [3], [2], [300], True, "contiguous"),
    (1, 1, 33, 50, [12], [3], [7], [1], [600], False, "strided"),
    (1, 3, 70, 9, [7], [7], [0], [6], [90], True, "misaligned"),
    (1, 2, 24, 130, [2], [1], [1], [0], [513], True, "contiguous"),
    (2, 2, 16, 24, [1, 16], [1, 8], [0, 5], [0, 3], [3, 70], True, "channels_last"),
    (1, 2, 64, 32, [32], [8], [20], [0], [100], False, "contiguous"),
    (1, 0, 16, 8, [16], [8], [4], [0], [20], True, "contiguous"),
]


def check_strip_forward(seed_text, dims, batch, cin, cout, kernel, spatial, bias, layout, args, kernel_name,
                        poison_allocator, mode="tf32"):
    """One forward under "igemm_strip" on fresh tensors (poisoned allocations): the named kernel ran, and the output
    meets the precision contract against float64 and cuDNN in the same mode (TF32: and TF32-rounded float64)."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    gen = torch.Generator(device="cuda").manual_seed(zlib.crc32(seed_text.encode()) % 10000)
    dtype = dtype_of(mode)
    x = make_tensor([batch, cin, *spatial], dtype, layout, gen)
    w = make_tensor([cin, cout, *kernel], dtype, "contiguous" if layout == "strided" else layout, gen)
    b = torch.randn(cout, generator=gen, device="cuda").to(dtype) if bias else None
    with precision(mode):
        poison_allocator()
        with tconv._ops.use_algorithm("igemm_strip"), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            ours = TCONV_FN[dims](x, w, b, *args)
            torch.cuda.synchronize()
        theirs = TORCH_FN[dims](x, w, b, *args)
    if ours.numel() > 0:
        assert any(kernel_name in e.name for e in prof.events()), f"{kernel_name} did not run"
    b64 = b.double() if b is not None else None
    ref64 = TORCH_FN[dims](x.double(), w.double(), b64, *args)
    ideal = TORCH_FN[dims](round_to_tf32(x), round_to_tf32(w), b64, *args) if mode == "tf32" else None
    check_close("output", ours, ref64, theirs, mode, ideal)


# fp16/bf16 data on the same kernel with k16 MMAs (twice the channels per stage), with torch's TF32 flag off.
@pytest.mark.parametrize("mode", ["tf32", "fp16", "bf16"])
@pytest.mark.parametrize("case", STRIP_FORWARD_GRID, ids=[f"f{i}" for i in range(len(STRIP_FORWARD_GRID))])
def test_strip_forward(case, mode, poison_allocator):
    dims, batch, cin, cout, kernel, stride, padding, output_padding, spatial, bias, layout = case
    check_strip_forward(f"{case}forward", dims, batch, cin, cout, kernel, spatial, bias, layout,
                        (stride, padding, output_padding, 1, [1] * dims), "strip_forward_kernel", poison_allocator,
                        mode)


# The forward's unit-stride strip form (conv_transpose_igemm.cu, unit_stride_forward; Hopper, TF32 mode): stride 1,
# a W kernel of 3, 5 or 7 taps, rows of all output lines in 256-row tiles. Output-channel tiles of 32, 64 and 128
# (partial ones, and two tiles at 130), 16- and 8-channel stages with C_in not a multiple of either, D/H kernels
# with dilation and padding, lines that no (kd, kh) tap reaches (bias only), lines shorter and longer than a tile,
# tiles spanning samples and D planes, channels_last, strided and misaligned views, and a batch of 0.
STRIP_UNIT_STRIDE_GRID = [
    # dims, batch, cin, cout, kernel, padding, output_padding, dilation, spatial, bias, layout
    (3, 2, 32, 64, [3, 5, 5], [0, 0, 0], [0, 0, 0], [1, 1, 1], [5, 6, 9], True, "contiguous"),
    (3, 2, 20, 130, [2, 3, 3], [1, 0, 1], [0, 0, 0], [2, 1, 1], [4, 5, 7], False, "contiguous"),
    (2, 2, 16, 24, [3, 7], [1, 3], [0, 0], [1, 1], [13, 40], True, "channels_last"),
    (2, 1, 12, 7, [3, 3], [0, 1], [1, 0], [3, 1], [2, 40], True, "contiguous"),
    (2, 2, 9, 100, [1, 7], [0, 2], [0, 0], [1, 1], [3, 300], True, "strided"),
    (2, 3, 33, 96, [2, 5], [1, 4], [0, 0], [1, 1], [5, 31], False, "misaligned"),
    (1, 3, 40, 128, [3], [1], [0], [1], [700], True, "contiguous"),
    (1, 2, 17, 50, [5], [0], [0], [1], [3], True, "contiguous"),
    (3, 0, 16, 8, [3, 3, 3], [1, 1, 1], [0, 0, 0], [1, 1, 1], [4, 4, 4], True, "contiguous"),
    # 64-channel tiles (the weights-as-A form, staged stores): full tiles over many row tiles with channels_last
    # output, and a partial tile (40 channels) at T = 7 with D dilation on a misaligned input
    (2, 2, 16, 64, [3, 5], [1, 2], [0, 0], [1, 1], [9, 300], True, "channels_last"),
    (3, 1, 24, 40, [2, 3, 7], [0, 1, 3], [0, 0, 0], [2, 1, 1], [3, 4, 50], False, "misaligned"),
    # 32-channel tiles over many row tiles (the tap-pairs form unless TCONV_UNIT_STRIDE_TAP_PAIRS=0: 255 stored rows per
    # tile, lines crossing tiles, an odd T's unpaired last tap): full at T = 5, partial (17) at T = 3 and 7
    (3, 2, 32, 32, [3, 3, 5], [1, 1, 2], [0, 0, 0], [1, 1, 1], [3, 5, 70], True, "contiguous"),
    (2, 3, 40, 17, [2, 3], [1, 1], [0, 0], [2, 1], [6, 129], False, "channels_last"),
    (1, 2, 24, 20, [7], [3], [0], [1], [1000], True, "misaligned"),
    # even W_in and W padding (fp16/bf16: x as words of two positions, unit_stride_x_pairs): a 64-channel tile, two
    # 128-channel tiles (130) with a partial channel stage, and a misaligned input (the per-position loads again)
    (3, 2, 32, 64, [3, 3, 5], [1, 0, 2], [0, 0, 0], [1, 1, 1], [4, 5, 20], True, "contiguous"),
    (2, 2, 40, 130, [3, 3], [0, 2], [0, 0], [1, 1], [6, 34], False, "contiguous"),
    (2, 1, 24, 96, [3, 5], [1, 2], [0, 0], [1, 1], [5, 42], True, "misaligned"),
    # the 128-channel wide-rows tile with x pairs at T = 7 (W padding 4), a partial last row tile
    (3, 1, 16, 128, [2, 2, 7], [0, 1, 4], [0, 0, 0], [1, 1, 1], [3, 4, 18], True, "contiguous"),
    # more row tiles than SMs: 313 wide-rows tiles; 158 64-channel tiles with channels_last output; 180 tiles of which
    # those inside the D planes that no tap reaches (D dilation 3 over one input plane) hold no stage (the bias only)
    (1, 4, 40, 128, [3], [1], [0], [1], [20000], True, "contiguous"),
    (2, 2, 16, 64, [3, 5], [1, 2], [0, 0], [1, 1], [40, 500], True, "channels_last"),
    (3, 12, 8, 64, [2, 3, 3], [0, 1, 1], [0, 0, 0], [3, 1, 1], [1, 30, 30], True, "contiguous"),
]


# fp16/bf16 data take the same kernel on k16 MMAs (twice the channels per stage) whatever torch's TF32 flag says:
# every case in both, with the flag off (precision() sets it for "tf32" only).
@pytest.mark.parametrize("mode", ["tf32", "fp16", "bf16"])
@pytest.mark.parametrize("case", STRIP_UNIT_STRIDE_GRID, ids=[f"u{i}" for i in range(len(STRIP_UNIT_STRIDE_GRID))])
def test_strip_unit_stride_forward(case, mode, poison_allocator):
    dims, batch, cin, cout, kernel, padding, output_padding, dilation, spatial, bias, layout = case
    check_strip_forward(f"{case}unit", dims, batch, cin, cout, kernel, spatial, bias, layout,
                        ([1] * dims, padding, output_padding, 1, dilation), "strip_unit_stride_forward_kernel",
                        poison_allocator, mode)


# grad_input at unit stride as the unit-stride forward of grad_output (conv_transpose_igemm.cu,
# unit_stride_grad_input: weights flipped through negative strides, channels swapped, padding dil (k - 1) - p), forced
# by "igemm_strip", every gradient checked: the forward grid's shapes with output_padding 0 (the form's condition).
# grad_input's C_in becomes the N side (a partial 32-channel tile at 20, 12 and 9 channels; three tiles at 300) and
# C_out the K side (130 channels: 16-channel stages with a partial one), D/H dilation with padding 1 (p' = 1),
# padding at its bound (p' = 0), channels_last, strided and misaligned inputs, lines shorter than the W kernel, and
# a batch of 0.
STRIP_UNIT_STRIDE_GRAD_INPUT_GRID = [
    # dims, batch, cin, cout, kernel, padding, dilation, spatial, bias, layout
    (3, 2, 32, 64, [3, 5, 5], [0, 0, 0], [1, 1, 1], [5, 6, 9], True, "contiguous"),
    (3, 2, 20, 130, [2, 3, 3], [1, 0, 1], [2, 1, 1], [4, 5, 7], False, "contiguous"),
    (2, 2, 16, 24, [3, 7], [1, 3], [1, 1], [13, 40], True, "channels_last"),
    (2, 1, 12, 7, [3, 3], [0, 1], [3, 1], [2, 40], True, "contiguous"),
    (2, 2, 9, 100, [1, 7], [0, 2], [1, 1], [3, 300], True, "strided"),
    (2, 3, 33, 96, [2, 5], [1, 4], [1, 1], [5, 31], False, "misaligned"),
    (1, 3, 300, 40, [3], [1], [1], [700], True, "contiguous"),
    (1, 2, 17, 50, [5], [0], [1], [3], True, "contiguous"),
    (3, 0, 16, 8, [3, 3, 3], [1, 1, 1], [1, 1, 1], [4, 4, 4], True, "contiguous"),
    # 313 row tiles of 128 channels (grad_input's C_in)
    (1, 4, 128, 40, [3], [1], [1], [20000], True, "contiguous"),
]


@pytest.mark.parametrize("mode", ["tf32", "fp16", "bf16"])
@pytest.mark.parametrize("case", STRIP_UNIT_STRIDE_GRAD_INPUT_GRID,
                         ids=[f"g{i}" for i in range(len(STRIP_UNIT_STRIDE_GRAD_INPUT_GRID))])
def test_strip_unit_stride_grad_input(case, mode, poison_allocator):
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    dims, batch, cin, cout, kernel, padding, dilation, spatial, bias, layout = case
    run_case(dims, batch, cin, cout, 1, kernel, [1] * dims, padding, [0] * dims, dilation, spatial, bias,
             mode=mode, layout=layout, seed=zlib.crc32(f"{case}unit_gi".encode()) % 10000, poison=poison_allocator,
             algorithm="igemm_strip")


def test_unit_stride_grad_input_runs_and_refuses():
    """Under "igemm_strip" a stride-1 forward+backward launches the unit-stride kernel twice (the forward and
    grad_input); padding past dilation x (kernel - 1) and output_padding are refused there with an error naming the
    algorithm, and "auto" then takes another kernel and stays correct (run_case's checks)."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    gen = torch.Generator(device="cuda").manual_seed(22)
    x = torch.randn(2, 24, 6, 40, device="cuda", generator=gen, requires_grad=True)
    w = torch.randn(24, 16, 3, 5, device="cuda", generator=gen, requires_grad=True)
    with precision("tf32"), tconv._ops.use_algorithm("igemm_strip"), \
            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = tconv.conv_transpose2d(x, w, None, 1, [1, 2])
        out.backward(torch.randn_like(out))
        torch.cuda.synchronize()
    launches = [e.name for e in prof.events() if "strip_unit_stride_forward_kernel" in e.name]
    assert len(launches) == 2, launches
    for padding, output_padding, dilation in (([1, 5], [0, 0], [1, 1]), ([1, 2], [1, 0], [2, 1])):
        with precision("tf32"), tconv._ops.use_algorithm("igemm_strip"), \
                pytest.raises(RuntimeError, match="igemm_strip"):
            out = tconv.conv_transpose2d(x, w, None, 1, padding, output_padding, 1, dilation)
            out.backward(torch.randn_like(out))
        run_case(2, 2, 24, 16, 1, [3, 5], [1, 1], padding, output_padding, dilation, [6, 40], False, mode="tf32",
                 layout="contiguous", seed=23, algorithm="auto")


def test_strip_kernels_run_where_planned():
    """Under "auto" in TF32 mode the three strip kernels run on k16 s8 lines of 16 x 128 -> 128 channels x 1024
    positions (grids past StripAutoRule's bounds on an H100/H200); at W_in 1025 grad_weight leaves for the GEMM
    while the forward and grad_input stay; on one small line (grids of a few blocks) "auto" runs only grad_input's,
    "igemm_strip" all three; exact fp32 runs none; bf16 runs all three."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    if torch.cuda.get_device_properties(0).multi_processor_count > 132:
        pytest.skip("the shapes are sized for at most 132 SMs (StripAutoRule's grid bounds)")

    def kernel_names(batch, channels, width, mode, algorithm="auto"):
        x = torch.randn(batch, channels, width, device="cuda", dtype=dtype_of(mode), requires_grad=True)
        w = torch.randn(channels, channels, 16, device="cuda", dtype=dtype_of(mode), requires_grad=True)
        with precision(mode), tconv._ops.use_algorithm(algorithm), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = tconv.conv_transpose1d(x, w, None, 8, 4)
            out.backward(torch.randn_like(out))
            torch.cuda.synchronize()
        return " ".join(e.name for e in prof.events())
    strip_kernels = ("strip_forward_kernel", "strip_grad_input_kernel", "strip_grad_weight_kernel")
    names = kernel_names(16, 128, 1024, "tf32")
    assert all(k in names for k in strip_kernels), names
    names = kernel_names(16, 128, 1025, "tf32")
    assert "strip_forward_kernel" in names and "strip_grad_input_kernel" in names, names
    assert "strip_grad_weight_kernel" not in names, names
    names = kernel_names(1, 64, 256, "tf32")
    assert "strip_grad_input_kernel" in names, names
    assert "strip_forward_kernel" not in names and "strip_grad_weight_kernel" not in names, names
    names = kernel_names(1, 64, 256, "tf32", "igemm_strip")
    assert all(k in names for k in strip_kernels), names
    assert "_strip_" not in kernel_names(16, 128, 1024, "fp32")
    # bf16: all three take 16-bit data (k16 MMAs on the values as they are).
    names = kernel_names(16, 128, 1024, "bf16")
    assert ("strip_grad_input_kernel" in names) == STRIP_GRAD_INPUT_16BIT, names
    assert ("strip_grad_weight_kernel" in names) == STRIP_GRAD_WEIGHT_16BIT, names
    strip_lines_16bit = os.environ.get("TCONV_STRIP_LINES_16BIT", "1") not in ("", "0")
    assert ("strip_forward_kernel" in names) == strip_lines_16bit, names


def test_unit_stride_forward_where_planned():
    """Under "auto" in TF32 mode the unit-stride strip form runs a 3D k3x5x5 forward (a K loop of 2400, 405 blocks:
    past StripAutoRule's bounds on an H100/H200) and a 2D k3x3 one with 64 input channels (K 576), not one with 32
    (K 288), not a channels_last input, and nothing strip-like in exact fp32; grad_input through the same kernel
    follows the same rule. fp16/bf16 data take it from a K loop of 288."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    if torch.cuda.get_device_properties(0).multi_processor_count > 405:
        pytest.skip("the 3D shape is sized for at most 405 SMs (StripAutoRule's grid bound)")

    def kernel_names(x, w, mode):
        with precision(mode), tconv._ops.use_algorithm("auto"), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            (tconv.conv_transpose3d if x.dim() == 5 else tconv.conv_transpose2d)(x, w)
            torch.cuda.synchronize()
        return " ".join(e.name for e in prof.events())
    x3 = torch.randn(4, 32, 16, 32, 32, device="cuda")
    w3 = torch.randn(32, 64, 3, 5, 5, device="cuda")
    assert "strip_unit_stride_forward_kernel" in kernel_names(x3, w3, "tf32")
    assert ("strip_unit_stride_forward_kernel" in kernel_names(
        x3.contiguous(memory_format=torch.channels_last_3d), w3, "tf32")) == UNIT_STRIDE_CHANNELS_LAST
    assert "_strip_" not in kernel_names(x3, w3, "fp32")
    x2, w2 = torch.randn(4, 32, 64, 256, device="cuda"), torch.randn(32, 32, 3, 3, device="cuda")
    assert "strip_unit_stride_forward_kernel" not in kernel_names(x2, w2, "tf32")
    # 64 input channels: K 576, past StripAutoRule's 384 (run 159: fam01's 576 won 1.16x; run 367: fam04's 384 won)
    x4, w4 = torch.randn(4, 64, 64, 256, device="cuda"), torch.randn(64, 64, 3, 3, device="cuda")
    assert "strip_unit_stride_forward_kernel" in kernel_names(x4, w4, "tf32")

    def unit_stride_launches_fwd_bwd(x, w):
        x, w = x.detach().requires_grad_(), w.detach().requires_grad_()
        with precision("tf32"), tconv._ops.use_algorithm("auto"), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = (tconv.conv_transpose3d if x.dim() == 5 else tconv.conv_transpose2d)(x, w)
            out.backward(torch.randn_like(out))
            torch.cuda.synchronize()
        return sum("strip_unit_stride_forward_kernel" in e.name for e in prof.events())
    # grad_input takes the same rule on its own K (C_out x kernel: 4800 here, 288 for the 32-channel 2D shape)
    assert unit_stride_launches_fwd_bwd(x3, w3) == 2
    assert unit_stride_launches_fwd_bwd(x2, w2) == 0
    # bf16 and fp16 (either TF32 mode) from K 288 (StripAutoRule, run 206; channels rounded up to whole 32-channel
    # stages): the 3D shape's forward and grad_input, the 64-channel 2D forward, not a 1 x 3 kernel (K 96); the
    # 32-channel 2D forward now takes the unit-stride mma.sync kernel (UnitStrideMmaAutoRule, run 282).
    x5, w5 = torch.randn(4, 16, 64, 256, device="cuda"), torch.randn(16, 16, 1, 3, device="cuda")
    for dtype, mode in ((torch.bfloat16, "tf32"), (torch.float16, "fp32")):
        x16, w16 = x3.to(dtype), w3.to(dtype)
        assert "strip_unit_stride_forward_kernel" in kernel_names(x16, w16, mode)
        assert unit_stride_launches_fwd_bwd(x16, w16) == 2
        assert "strip_unit_stride_forward_kernel" in kernel_names(x4.to(dtype), w4.to(dtype), mode)
        assert "unit_stride_mma_kernel" in kernel_names(x2.to(dtype), w2.to(dtype), mode)
        assert "strip_unit_stride_forward_kernel" not in kernel_names(x5.to(dtype), w5.to(dtype), mode)


UNIT_STRIDE_TAP_PAIRS = os.environ.get("TCONV_UNIT_STRIDE_TAP_PAIRS", "1") not in ("", "0")


# TCONV_UNIT_STRIDE_CHANNELS_LAST unset or 1 (conv_transpose_igemm.cu, unit_stride_channels_last): "auto" takes the
# unit-stride form for fp32 data on channels_last tensors too, with the kernel's channels-last access
# (TCONV_UNIT_STRIDE_CL_ACCESS unset; 0 keeps the per-channel loads and the row store). The cases:
# test_unit_stride_forward_where_planned's 3D k3x5x5 shape (forward and grad_input past StripAutoRule's bounds) and an
# L2-61-like k3 one (64 -> 128 channels, the 128-channel
# wide-rows tile; 191 forward and 136 grad_input blocks, past the bound of one block an SM), channels_last with
# grad_output channels_last (as autograd hands it on), and a 2D k3 one with 64 channels a side.
UNIT_STRIDE_CHANNELS_LAST_CASES = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (3, 4, 32, 64, 1, [3, 5, 5], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [16, 32, 32], True),
    (3, 4, 64, 128, 1, [3, 3, 3], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [8, 32, 32], True),
    (2, 4, 64, 64, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [64, 256], False),
]
UNIT_STRIDE_CHANNELS_LAST = os.environ.get("TCONV_UNIT_STRIDE_CHANNELS_LAST", "") != "0"


def test_unit_stride_channels_last_where_switched(tmp_path, monkeypatch):
    """Under TCONV_UNIT_STRIDE_CHANNELS_LAST unset (the default) and =1 each channels_last TF32 case meets the
    precision contract under "auto" (run_case: float64 and torch, outputs and every gradient, poisoned outputs) and its
    forward+backward launches the unit-stride kernel twice (forward and grad_input; the 2D case at least its forward),
    also under TCONV_UNIT_STRIDE_CL_ACCESS=0 (the per-channel loads and the row store); under =0 it launches none,
    with the same contract.
    The same cases in bf16 launch the same kernels under all (16-bit data stay on their channels-last forms)."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    if torch.cuda.get_device_properties(0).multi_processor_count > 405:
        pytest.skip("the 3D shape is sized for at most 405 SMs (StripAutoRule's grid bound)")
    code = (
        "import sys, torch, tconv\n"
        "import test_conv_transpose_gpu as t\n"
        "from conftest import poison_cuda_allocator\n"
        "def launches(case, mode):\n"
        "    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias = case\n"
        "    dtype = t.dtype_of(mode)\n"
        "    gen = torch.Generator(device='cuda').manual_seed(7)\n"
        "    x = t.make_tensor([batch, cin, *spatial], dtype, 'channels_last', gen).requires_grad_()\n"
        "    w = t.make_tensor([cin, cout, *kernel], dtype, 'channels_last', gen).requires_grad_()\n"
        "    with t.precision(mode), tconv._ops.use_algorithm('auto'), \\\n"
        "            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:\n"
        "        out = t.TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)\n"
        "        out.backward(torch.randn_like(out))\n"
        "        torch.cuda.synchronize()\n"
        "    return [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]\n"
        "results = []\n"
        "for i, case in enumerate(t.UNIT_STRIDE_CHANNELS_LAST_CASES):\n"
        "    t.run_case(*case, mode='tf32', layout='channels_last', seed=90 + i, poison=poison_cuda_allocator,\n"
        "               grad_like_output=True)\n"
        "    results.append((launches(case, 'tf32'), launches(case, 'bf16')))\n"
        "torch.save(results, sys.argv[1])\n")
    saved = run_under_switch(code, tmp_path, "TCONV_UNIT_STRIDE_CHANNELS_LAST", values=("", "1", "0"))
    monkeypatch.setenv("TCONV_UNIT_STRIDE_CHANNELS_LAST", "1")
    saved["per-channel access"] = run_under_switch(code, tmp_path, "TCONV_UNIT_STRIDE_CL_ACCESS", values=("0",))["0"]
    for setting in ("", "1", "per-channel access"):
        for case, (on_tf32, on_bf16), (off_tf32, off_bf16) in \
                zip(UNIT_STRIDE_CHANNELS_LAST_CASES, saved[setting], saved["0"]):
            count_on = sum("strip_unit_stride_forward_kernel" in n for n in on_tf32)
            count_off = sum("strip_unit_stride_forward_kernel" in n for n in off_tf32)
            assert count_on == 2 or (case[0] == 2 and count_on == 1), (setting, case, on_tf32)
            assert count_off == 0, (case, off_tf32)
            assert sorted(on_bf16) == sorted(off_bf16), (setting, case, on_bf16, off_bf16)


@pytest.mark.parametrize("taps", [3, 5, 7])
def test_unit_stride_tap_pairs_where_switched(taps):
    """A 32-channel unit-stride forward runs the tap-pairs form unless TCONV_UNIT_STRIDE_TAP_PAIRS=0, and a
    64-channel one never does. (grad_input runs the same kernel: the grad_input grid's cases of at most 32 input
    channels take the form with the switch on.)"""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")

    def unit_stride_kernels(cout):
        x = torch.randn(2, 24, 4, 5, 40, device="cuda")
        w = torch.randn(24, cout, 3, 3, taps, device="cuda")
        with precision("tf32"), tconv._ops.use_algorithm("igemm_strip"), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            tconv.conv_transpose3d(x, w, padding=(1, 1, taps // 2))
            torch.cuda.synchronize()
        return [e.name for e in prof.events() if "strip_unit_stride_forward_kernel" in e.name]

    def pairs(name):
        flags = unit_stride_flags(name)
        return flags["weights_as_a"] and flags["tap_pairs"]
    names = unit_stride_kernels(32)
    assert names and all(pairs(n) == UNIT_STRIDE_TAP_PAIRS for n in names), names
    names = unit_stride_kernels(64)
    assert names and not any(pairs(n) for n in names), names


# The half tile for the tap-pairs form (StripUnitStrideHalfTileRule's kTapPairs bounds under
# TCONV_UNIT_STRIDE_HALF_TILE_TAP_PAIRS=1, 0 nowhere, 2 everywhere): fam07's channels (48 -> 24: forward K 1296, its
# grad_input on the 64-channel tile), fam02's k3x5x7 (32 -> 16: forward K 3360 and grad_input K 1680 in pairs),
# L1-68's grad_input form (64 -> 32, T 5: K 4800, past the fp32 bound, under it in bf16), partial channel tiles on
# both sides in 2D fp16 (20 -> 30, kernel W 5: K 300 and 450), and 1D kernel W 7 (24 -> 32, K 168); lines of 39-306
# rows cross the 127-row blocks.
HALF_TILE_TAP_PAIRS_CASES = [
    # dims, batch, cin, cout, kernel, padding, spatial, bias, mode
    (3, 2, 48, 24, [3, 3, 3], [1, 1, 1], [4, 5, 37], False, "bf16"),
    (3, 2, 32, 16, [3, 5, 7], [0, 2, 3], [3, 4, 30], True, "tf32"),
    (3, 1, 32, 64, [3, 5, 5], [1, 2, 2], [3, 5, 40], False, "tf32"),
    (3, 1, 32, 64, [3, 5, 5], [1, 2, 2], [3, 5, 40], False, "bf16"),
    (2, 2, 20, 30, [3, 5], [1, 2], [6, 70], True, "fp16"),
    (1, 3, 24, 32, [7], [3], [300], False, "tf32"),
]
TAP_PAIRS_MIN_K, TAP_PAIRS_MAX_K_FP32 = 1024, 4096  # StripUnitStrideHalfTileRule (igemm_config.h)


def tap_pairs_half_tile_by_rule(k, mode):
    """Whether the rule gives a tap-pairs tile of this K (C_in x kernel volume of the kernel's own problem: the
    forward's, or grad_input's with C_out as its C_in) the half tile."""
    return k >= TAP_PAIRS_MIN_K and (mode != "tf32" or k <= TAP_PAIRS_MAX_K_FP32)


def test_unit_stride_half_tile_tap_pairs_where_switched(tmp_path):
    """The tap-pairs form (32-channel tiles) of the forward and of grad_input runs StripUnitStrideForwardHalfTile's
    kernel (128 rows: `UnitStrideTile<128`) where StripUnitStrideHalfTileRule's K bounds take it
    (TCONV_UNIT_STRIDE_HALF_TILE_TAP_PAIRS=1, the default), everywhere under 2 and nowhere under 0; each case meets
    the precision contract with every gradient (run_case, "igemm_strip") in every process, and the half tile and the
    256-row one give the same bits: a row's sums run over the same stages in the same order, and the blocks' (kd, kh)
    hulls differ only by stages of zeros."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    code = (
        "import sys, torch, tconv\n"
        "import test_conv_transpose_gpu as t\n"
        "results = []\n"
        "for i, (dims, batch, cin, cout, kernel, padding, spatial, bias, mode) in "
        "enumerate(t.HALF_TILE_TAP_PAIRS_CASES):\n"
        "    ones = [1] * dims\n"
        "    t.run_case(dims, batch, cin, cout, 1, kernel, ones, padding, [0] * dims, ones, spatial, bias,\n"
        "               mode=mode, layout='contiguous', seed=60 + i, algorithm='igemm_strip')\n"
        "    gen = torch.Generator(device='cuda').manual_seed(160 + i)\n"
        "    x = t.make_tensor([batch, cin, *spatial], t.dtype_of(mode), 'contiguous', gen).requires_grad_()\n"
        "    w = t.make_tensor([cin, cout, *kernel], t.dtype_of(mode), 'contiguous', gen)\n"
        "    with t.precision(mode), tconv._ops.use_algorithm('igemm_strip'), \\\n"
        "            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:\n"
        "        out = t.TCONV_FN[dims](x, w, None, 1, padding)\n"
        "        grad = t.make_tensor(list(out.shape), out.dtype, 'contiguous', gen)\n"
        "        grad_x, = torch.autograd.grad(out, [x], grad)\n"
        "        torch.cuda.synchronize()\n"
        "    names = [e.name for e in prof.events() if 'strip_unit_stride_forward_kernel' in e.name]\n"
        "    results.append((out.detach().cpu(), grad_x.cpu(), names))\n"
        "torch.save(results, sys.argv[1])\n")
    saved = run_under_switch(code, tmp_path, "TCONV_UNIT_STRIDE_HALF_TILE_TAP_PAIRS", values=("1", "2", "0"))
    for value in ("1", "2", "0"):
        for case, (_, _, names) in zip(HALF_TILE_TAP_PAIRS_CASES, saved[value]):
            dims, _, cin, cout, kernel, _, _, _, mode = case
            if mode == "tf32" and not UNIT_STRIDE_TAP_PAIRS:
                continue  # fp32 32-channel tiles without pairs (TCONV_UNIT_STRIDE_TAP_PAIRS=0)
            volume = math.prod(kernel)
            # a forward pairs taps at <= 32 output channels, grad_input at <= 32 input channels
            for pass_cin, pass_cout in ((cin, cout), (cout, cin)):
                if pass_cout > 32:
                    continue
                half = UNIT_STRIDE_HALF_TILE != "0" and (
                    value == "2" or (value == "1" and tap_pairs_half_tile_by_rule(pass_cin * volume, mode)))
                assert any(unit_stride_flags(n)["tap_pairs"] and ("UnitStrideTile<128" in n) == half
                           for n in names), (value, case, pass_cin, names)
            paired = [n for n in names if unit_stride_flags(n)["tap_pairs"]]
            assert paired, (value, case, names)
            if value != "1":
                assert all(("UnitStrideTile<128" in n) == (value == "2" and UNIT_STRIDE_HALF_TILE != "0")
                           for n in paired), (value, case, names)
    stage_48 = os.environ.get("TCONV_UNIT_STRIDE_STAGE_48", "3") != "0"
    for case, on, rule, off in zip(HALF_TILE_TAP_PAIRS_CASES, saved["2"], saved["1"], saved["0"]):
        if stage_48 and case[2] % 48 == 0 and case[2] % 32 != 0 and case[-1] in ("bf16", "fp16"):
            continue  # the half tile's 48-channel stages sum in another order than the 256-row tile's 32
        assert_bitwise_equal(on[:2], off[:2], str(case))
        assert_bitwise_equal(rule[:2], off[:2], str(case))


# 48-channel 16-bit stages at T 3 where C_in (the forward's, or grad_input's C_out) is a multiple of 48 but not of 32
# Unit-stride channels-last calls one element off their alignment, which the channels-last forms refuse (the mma.sync
# kernel's 16-byte windows, the wgmma kernel's 16-byte K-group loads, the 16-bit TMA window): L1-71's channels
# (32 -> 32), fam01's (64 -> 64) and L2-61's (64 -> 128 in 3D), so "auto" must take a kernel that reads them as they
# are.
CHANNELS_LAST_MISALIGNED_CASES = [
    # dims, batch, cin, cout, kernel, padding, spatial, bias
    (2, 2, 32, 32, [3, 3], [1, 1], [9, 70], True),
    (2, 1, 64, 64, [3, 3], [0, 0], [7, 90], False),
    (3, 1, 64, 128, [3, 3, 3], [0, 0, 0], [3, 5, 20], False),
]


@pytest.mark.parametrize("mode", ["tf32", "fp32", "bf16"])
@pytest.mark.parametrize("case", CHANNELS_LAST_MISALIGNED_CASES, ids=lambda c: f"{c[0]}d_{c[2]}to{c[3]}")
def test_unit_stride_channels_last_misaligned_inputs(case, mode, poison_allocator):
    """Such calls under "auto" meet the precision contract with every gradient, whatever kernel takes them."""
    dims, batch, cin, cout, kernel, padding, spatial, bias = case
    ones = [1] * dims
    run_case(dims, batch, cin, cout, 1, kernel, ones, padding, [0] * dims, ones, spatial, bias, mode=mode,
             layout="channels_last_misaligned", seed=90 + cin, poison=poison_allocator)


# fp32 channels-last calls that W-contiguous ones would give a half tile: fam01's 64 -> 64 at k3 (K 576, the
# 64-channel half tile) in 2D, and fam02's k3x5x7 32 -> 16 (forward K 3360 and grad_input K 1680, the tap-pairs half
# tile) in 3D.
CHANNELS_LAST_HALF_TILE_CASES = [
    # dims, batch, cin, cout, kernel, padding, spatial, bias
    (2, 2, 64, 64, [3, 3], [0, 0], [9, 140], True),
    (3, 2, 32, 16, [3, 5, 7], [0, 2, 3], [3, 4, 30], False),
]


@pytest.mark.parametrize("case", CHANNELS_LAST_HALF_TILE_CASES, ids=lambda c: f"{c[0]}d_{c[2]}to{c[3]}")
def test_unit_stride_tf32_channels_last_keeps_256_row_tiles(case, poison_allocator):
    """TF32 channels_last calls take the 256-row unit-stride tiles (`UnitStrideTile<256`, which read and write
    channels-last tensors through their channels-last access) where W-contiguous ones would take a half tile
    (`UnitStrideTile<128`, which reads them a channel at a time: run 564 had fam01 at 0.22x eager); unless
    TCONV_UNIT_STRIDE_CL_HALF_TILE=1. Each case meets the precision contract with every gradient."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    if UNIT_STRIDE_HALF_TILE != "1" or os.environ.get("TCONV_UNIT_STRIDE_CL_HALF_TILE", "0") == "1":
        pytest.skip("the half tiles' default rules only")
    dims, batch, cin, cout, kernel, padding, spatial, bias = case
    ones = [1] * dims
    run_case(dims, batch, cin, cout, 1, kernel, ones, padding, [0] * dims, ones, spatial, bias, mode="tf32",
             layout="channels_last", seed=70 + dims, poison=poison_allocator, algorithm="igemm_strip")
    gen = torch.Generator(device="cuda").manual_seed(170 + dims)
    x = make_tensor([batch, cin, *spatial], torch.float32, "channels_last", gen).requires_grad_()
    w = make_tensor([cin, cout, *kernel], torch.float32, "contiguous", gen)
    with precision("tf32"), tconv._ops.use_algorithm("igemm_strip"), \
            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = TCONV_FN[dims](x, w, None, 1, padding)
        grad_x, = torch.autograd.grad(out, [x], torch.randn_like(out))
        torch.cuda.synchronize()
    names = [e.name for e in prof.events() if "strip_unit_stride_forward_kernel" in e.name]
    assert len(names) == 2, names  # the forward and grad_input
    assert all("UnitStrideTile<256" in n for n in names), names


def test_unit_stride_channels_last_half_tile_switch(tmp_path):
    """Under TCONV_UNIT_STRIDE_CL_HALF_TILE=1 (a fresh process) the fp32 64-channel half tiles take TF32 channels_last
    calls, on their channels-last access since session 118: the 2D cases of CHANNELS_LAST_HALF_TILE_CASES and
    CL_STORE_ROWS_CASES meet the precision contract with every gradient (poisoned outputs), and the forward launches
    the 128-row tile."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    if UNIT_STRIDE_HALF_TILE != "1":
        pytest.skip("the half tiles' default rules only")
    code = (
        "import sys, torch, tconv\n"
        "import test_conv_transpose_gpu as t\n"
        "from conftest import poison_cuda_allocator\n"
        "results = []\n"
        "cases = [c for c in t.CHANNELS_LAST_HALF_TILE_CASES + t.CL_STORE_ROWS_CASES if c[0] == 2]\n"
        "for i, (dims, batch, cin, cout, kernel, padding, spatial, bias) in enumerate(cases):\n"
        "    ones = [1] * dims\n"
        "    t.run_case(dims, batch, cin, cout, 1, kernel, ones, padding, [0] * dims, ones, spatial, bias,\n"
        "               mode='tf32', layout='channels_last', seed=340 + i, poison=poison_cuda_allocator,\n"
        "               algorithm='igemm_strip', grad_like_output=True)\n"
        "    gen = torch.Generator(device='cuda').manual_seed(440 + i)\n"
        "    x = t.make_tensor([batch, cin, *spatial], torch.float32, 'channels_last', gen)\n"
        "    w = t.make_tensor([cin, cout, *kernel], torch.float32, 'channels_last', gen)\n"
        "    with t.precision('tf32'), tconv._ops.use_algorithm('igemm_strip'), \\\n"
        "            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:\n"
        "        t.TCONV_FN[dims](x, w, None, 1, padding)\n"
        "        torch.cuda.synchronize()\n"
        "    results.append([e.name for e in prof.events() if 'strip_unit_stride_forward_kernel' in e.name])\n"
        "torch.save(results, sys.argv[1])\n")
    saved = run_under_switch(code, tmp_path, "TCONV_UNIT_STRIDE_CL_HALF_TILE", values=("1",))["1"]
    assert len(saved) == sum(c[0] == 2 for c in CHANNELS_LAST_HALF_TILE_CASES + CL_STORE_ROWS_CASES)
    for names in saved:
        assert len(names) == 1 and "UnitStrideTile<128" in names[0], names


# TCONV_UNIT_STRIDE_CL_STORE_ROWS (conv_transpose_igemm.cu, unit_stride_cl_store_rows_mode): the channels-last store
# of the unit-stride forward decodes each row once a lane and shuffles the y offsets (=2), or decodes every row in
# every lane (unset or 1, the default until 2 is measured). The cases: the 2D half-tile case above (rows ending
# inside a tile, a bias), the L2-61-like 3D wide-rows one (128 channels: two warpgroups' rows), and a 2D one whose
# C_out (48) leaves lanes without a channel.
CL_STORE_ROWS_CASES = [
    # dims, batch, cin, cout, kernel, padding, spatial, bias
    (2, 2, 64, 64, [3, 3], [0, 0], [9, 140], True),
    (3, 2, 64, 128, [3, 3, 3], [0, 0, 0], [5, 9, 30], False),
    (2, 3, 64, 48, [3, 3], [1, 1], [7, 61], True),
]


def test_unit_stride_channels_last_store_rows_switch(tmp_path):
    """Under TCONV_UNIT_STRIDE_CL_STORE_ROWS =2 and =1 (a fresh process each) every case meets the precision
    contract with every gradient (poisoned outputs) in TF32 channels_last on the unit-stride kernel, the forward's
    output is bit for bit the same under both (the same sums, stored by other lanes), and the kernel runs."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    code = (
        "import sys, torch, tconv\n"
        "import test_conv_transpose_gpu as t\n"
        "from conftest import poison_cuda_allocator\n"
        "results = []\n"
        "for i, case in enumerate(t.CL_STORE_ROWS_CASES):\n"
        "    dims, batch, cin, cout, kernel, padding, spatial, bias = case\n"
        "    ones = [1] * dims\n"
        "    t.run_case(dims, batch, cin, cout, 1, kernel, ones, padding, [0] * dims, ones, spatial, bias,\n"
        "               mode='tf32', layout='channels_last', seed=140 + i, poison=poison_cuda_allocator,\n"
        "               algorithm='igemm_strip', grad_like_output=True)\n"
        "    gen = torch.Generator(device='cuda').manual_seed(240 + i)\n"
        "    x = t.make_tensor([batch, cin, *spatial], torch.float32, 'channels_last', gen)\n"
        "    w = t.make_tensor([cin, cout, *kernel], torch.float32, 'channels_last', gen)\n"
        "    b = torch.randn(cout, generator=gen, device='cuda') if bias else None\n"
        "    with t.precision('tf32'), tconv._ops.use_algorithm('igemm_strip'), \\\n"
        "            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:\n"
        "        out = t.TCONV_FN[dims](x, w, b, 1, padding)\n"
        "        torch.cuda.synchronize()\n"
        "    names = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]\n"
        "    results.append((out.cpu(), names))\n"
        "torch.save(results, sys.argv[1])\n")
    saved = run_under_switch(code, tmp_path, "TCONV_UNIT_STRIDE_CL_STORE_ROWS", values=("2", "1"))
    for case, (out_new, names_new), (out_old, names_old) in zip(CL_STORE_ROWS_CASES, saved["2"], saved["1"]):
        assert torch.equal(out_new, out_old), case
        assert any("strip_unit_stride_forward_kernel" in n for n in names_new), (case, names_new)
        assert any("strip_unit_stride_forward_kernel" in n for n in names_old), (case, names_old)

# (TCONV_UNIT_STRIDE_STAGE_48: 1 the tap-pairs half tiles, StripUnitStrideForwardHalfTile48; 2 also the 64-channel
# weights-as-A tiles as 256-row blocks, StripUnitStrideForwardTile48; 3 those on the half tile, one wgmma group in
# flight, the default; 0 none). fam07's forward form (48 -> 24 in pairs, K 1296), 144 input channels in fp16 (three
# stages of 48, a bias; grad_input on 128 channels), grad_input's pairs form (32 -> 48), fam03's form (48 -> 48: both
# passes on 64-channel tiles; fp16 with W padding 0 takes x pairs in both), and a 2D 48 -> 24 whose K 432 keeps the
# 256-row tap-pairs tile and its 32-channel stages.
STAGE_48_CASES = [
    # dims, batch, cin, cout, kernel, padding, spatial, bias, mode, (forward, grad_input): "pairs", "c64" or None
    (3, 2, 48, 24, [3, 3, 3], [1, 1, 1], [4, 5, 37], False, "bf16", ("pairs", None)),
    (3, 1, 144, 32, [3, 3, 3], [0, 1, 1], [3, 4, 50], True, "fp16", ("pairs", None)),
    (3, 2, 32, 48, [3, 3, 3], [1, 1, 1], [3, 5, 41], False, "bf16", (None, "pairs")),
    (3, 2, 48, 48, [3, 3, 3], [1, 1, 1], [4, 5, 38], True, "bf16", ("c64", "c64")),
    (3, 1, 48, 48, [3, 3, 3], [1, 1, 0], [4, 5, 38], False, "fp16", ("c64", "c64")),
    (2, 2, 48, 24, [3, 3], [1, 1], [9, 70], True, "bf16", (None, None)),
]


def unit_stride_template_args(name):
    """A unit-stride forward kernel's template arguments before its tile (scalar_t, kStages, kDepth, kInFlight,
    kBlockN, kTaps, kChannels, then the flags), as strings."""
    return [a.strip() for a in name.split("unit_stride_forward_kernel<", 1)[1].split(">", 1)[0].split(",")]


def test_unit_stride_stage_48_where_switched(tmp_path):
    """TCONV_UNIT_STRIDE_STAGE_48 puts the passes each value names on 48-channel stages (kChannels 48) and on the
    tile it names (the half tile's `UnitStrideTile<128, 128, 113, 2, 16384, 48>`, the 256-row one's `UnitStrideTile<256,
    256, 227, 1, 32768, 48>` with value 2; value 3's 64-channel half tile with one wgmma group in flight), and leaves
    every other unit-stride kernel at 32 channels (16-bit); 3 is the default; 0 runs no 48. Each case meets the precision
    contract with every gradient (run_case, "igemm_strip") under every value; the values differ in the order of their
    fp32 sums (three 16-channel k steps per tap against two stages of two), so they are compared by the contract, not
    by bits."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    if UNIT_STRIDE_HALF_TILE != "1" or os.environ.get("TCONV_UNIT_STRIDE_HALF_TILE_TAP_PAIRS", "1") != "1" or \
            os.environ.get("TCONV_UNIT_STRIDE_WEIGHTS_AS_A", "1") == "0":
        pytest.skip("the half-tile rules or the weights-as-A tiles are switched away from their defaults")
    code = (
        "import sys, torch, tconv\n"
        "import test_conv_transpose_gpu as t\n"
        "results = []\n"
        "for i, (dims, batch, cin, cout, kernel, padding, spatial, bias, mode, _) in enumerate(t.STAGE_48_CASES):\n"
        "    ones = [1] * dims\n"
        "    t.run_case(dims, batch, cin, cout, 1, kernel, ones, padding, [0] * dims, ones, spatial, bias,\n"
        "               mode=mode, layout='contiguous', seed=80 + i, algorithm='igemm_strip')\n"
        "    gen = torch.Generator(device='cuda').manual_seed(180 + i)\n"
        "    x = t.make_tensor([batch, cin, *spatial], t.dtype_of(mode), 'contiguous', gen).requires_grad_()\n"
        "    w = t.make_tensor([cin, cout, *kernel], t.dtype_of(mode), 'contiguous', gen)\n"
        "    with t.precision(mode), tconv._ops.use_algorithm('igemm_strip'), \\\n"
        "            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:\n"
        "        out = t.TCONV_FN[dims](x, w, None, 1, padding)\n"
        "        torch.cuda.synchronize()\n"
        "    forward = [e.name for e in prof.events() if 'strip_unit_stride_forward_kernel' in e.name]\n"
        "    grad = t.make_tensor(list(out.shape), out.dtype, 'contiguous', gen)\n"
        "    with t.precision(mode), tconv._ops.use_algorithm('igemm_strip'), \\\n"
        "            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:\n"
        "        torch.autograd.grad(out, [x], grad)\n"
        "        torch.cuda.synchronize()\n"
        "    grad_input = [e.name for e in prof.events() if 'strip_unit_stride_forward_kernel' in e.name]\n"
        "    results.append((forward, grad_input))\n"
        "torch.save(results, sys.argv[1])\n")
    values = ("1", "2", "3", "0")
    saved = run_under_switch(code, tmp_path, "TCONV_UNIT_STRIDE_STAGE_48", values=values)
    half_48, rows_48 = "UnitStrideTile<128, 128, 113, 2, 16384, 48>", "UnitStrideTile<256, 256, 227, 1, 32768, 48>"
    for value in values:
        for case, passes in zip(STAGE_48_CASES, saved[value]):
            for kind, names in zip(case[-1], passes):
                assert len(names) == 1, (value, case, names)
                name, args = names[0], unit_stride_template_args(names[0])
                expect_48 = (kind == "pairs" and value != "0") or (kind == "c64" and value in ("2", "3"))
                assert int(args[6]) == (48 if expect_48 else 32), (value, case, name)
                if not expect_48:
                    assert "16384, 48>" not in name and "32768, 48>" not in name, (value, case, name)
                elif kind == "pairs" or value == "3":
                    assert half_48 in name, (value, case, name)
                    assert int(args[3]) == (1 if kind == "c64" else 2), (value, case, name)  # kInFlight
                else:
                    assert rows_48 in name and int(args[3]) == 2, (value, case, name)


# The wide-rows tile's warp-specialized form (TCONV_UNIT_STRIDE_SPECIALIZED, development: 1, the default, for fp32
# data and 16-bit x in position pairs; 2 for 16-bit x per position too; 0 off): unit-stride calls of more than 64 output channels, at every tap count, 2D and
# 3D, a partial channel stage (C_in 40) and a partial second channel tile (C_out 160), a tile spanning two samples
# (short lines), bias on and off; a C_in of 128 puts grad_input on it too. The last two load 16-bit x in position
# pairs where contiguous (even W and W padding, even lines: unit_stride_x_pairs), an L2-61-like shape among them.
# (dims, batch, C_in, C_out, kernel, padding, dilation, spatial, bias)
SPECIALIZED_CASES = [
    (3, 2, 64, 128, [3, 3, 3], [1, 1, 1], [1, 1, 1], [4, 6, 33], True),
    (2, 3, 40, 160, [3, 5], [1, 2], [1, 1], [7, 45], False),
    (2, 2, 128, 128, [1, 7], [0, 3], [1, 1], [5, 301], True),
    (3, 1, 32, 96, [2, 1, 5], [0, 0, 2], [1, 1, 1], [3, 3, 9], True),
    (3, 2, 64, 128, [3, 3, 3], [0, 0, 0], [1, 1, 1], [4, 6, 32], False),
    (2, 2, 40, 128, [3, 5], [1, 2], [1, 1], [9, 40], True),
]


# The warp-specialized form's persistent kernel (TCONV_UNIT_STRIDE_PERSISTENT, development, default 0: 1 one block an
# SM, v > 1 v blocks per C_out tile): the specialized cases, and cases of more row tiles than an H200 has SMs (147
# tiles), of tiles whose tap hull is empty (D dilation 5 of a 2-plane input: output planes 2-4 read no input, tiles 3
# and 4 lie there), of one stage a tile (stored from registers) and of two (staged through both held slots) beside
# one at the edges, a partial channel tile among them.
PERSISTENT_CASES = SPECIALIZED_CASES + [
    (2, 4, 32, 128, [3, 3], [1, 1], [1, 1], [96, 96], True),
    (3, 1, 16, 128, [2, 3, 3], [0, 0, 0], [5, 1, 1], [2, 16, 15], True),
    (2, 2, 16, 128, [1, 3], [0, 1], [1, 1], [9, 40], True),
    (2, 2, 16, 96, [2, 3], [0, 1], [1, 1], [9, 40], False),
]


# A run_under_switch script over unit-stride forwards: sys.argv[2] is a JSON object of further switches (set before
# tconv loads), sys.argv[3] the name of one of this module's case lists, each case (dims, batch, C_in, C_out, kernel,
# padding, dilation, spatial, bias). In TF32, bf16 and fp16 each case meets the precision contract with every gradient
# (run_case, "igemm_strip", contiguous and strided), and the script saves (case index, mode, the forward's output of
# fixed seeded inputs on a poisoned allocator, the names of the unit-stride forward kernels that forward ran).
SWITCHED_UNIT_STRIDE_SCRIPT = """
import json, os, sys
os.environ.update(json.loads(sys.argv[2]))
import torch, tconv
import test_conv_transpose_gpu as t
from conftest import poison_cuda_allocator
results = []
for i, (dims, batch, cin, cout, kernel, padding, dilation, spatial, bias) in enumerate(getattr(t, sys.argv[3])):
    ones, zeros = [1] * dims, [0] * dims
    for mode in ("tf32", "bf16", "fp16"):
        for layout in ("contiguous", "strided"):
            t.run_case(dims, batch, cin, cout, 1, kernel, ones, padding, zeros, dilation, spatial, bias, mode=mode,
                       layout=layout, seed=95 + i, poison=poison_cuda_allocator, algorithm="igemm_strip")
        gen = torch.Generator(device="cuda").manual_seed(195 + i)
        x = t.make_tensor([batch, cin, *spatial], t.dtype_of(mode), "contiguous", gen)
        w = t.make_tensor([cin, cout, *kernel], t.dtype_of(mode), "contiguous", gen)
        b = torch.randn(cout, generator=gen, device="cuda").to(t.dtype_of(mode)) if bias else None
        poison_cuda_allocator()
        with t.precision(mode), tconv._ops.use_algorithm("igemm_strip"), \\
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            y = t.TCONV_FN[dims](x, w, b, 1, padding, zeros, 1, dilation)
            torch.cuda.synchronize()
        names = [e.name for e in prof.events() if "unit_stride_forward_kernel" in e.name]
        results.append((i, mode, y.cpu(), names))
torch.save(results, sys.argv[1])
"""


def assert_unit_stride_forms(runs, baseline, cases, form):
    """Each run's forward ran one unit-stride kernel whose last two template arguments (kSpecialized, kPersistent)
    are `form` (or form[mode], or either called with the kernel's name), and its output equals the baseline run's bit for bit (the same wgmmas in the same
    order, the same bias add)."""
    assert len(runs) == len(baseline) == 3 * len(cases)
    for (i, mode, y, names), (_, _, y_base, _) in zip(runs, baseline):
        expected = form[mode] if isinstance(form, dict) else form
        expected = expected(names[0]) if callable(expected) else expected
        label = (expected, cases[i], mode)
        assert len(names) == 1 and f"0>, {expected}>" in names[0], (label, names)
        assert torch.equal(y, y_base), label


def test_unit_stride_specialized_switch(tmp_path):
    """Under every value of TCONV_UNIT_STRIDE_SPECIALIZED each case meets the precision contract with every gradient
    in TF32, bf16 and fp16 (SWITCHED_UNIT_STRIDE_SCRIPT); the forward runs the warp-specialized kernel in TF32 and in
    16 bits with x in position pairs under 1 and 2, in 16 bits with x per position under 2 only, and the other form
    otherwise, with the same output bit for bit."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    if os.environ.get("TCONV_UNIT_STRIDE_WIDE_ROWS", "1") == "0":
        pytest.skip("the wide-rows tile is switched off")
    saved = run_under_switch(SWITCHED_UNIT_STRIDE_SCRIPT, tmp_path, "TCONV_UNIT_STRIDE_SPECIALIZED",
                             values=("1", "2", "0"), args=("{}", "SPECIALIZED_CASES"))
    specialized, other = "true, false", "false, false"

    def sixteen_bit(name):
        return specialized if unit_stride_flags(name)["x_pairs"] else other

    forms = {"1": {"tf32": specialized, "bf16": sixteen_bit, "fp16": sixteen_bit}, "2": specialized, "0": other}
    for value, form in forms.items():
        assert_unit_stride_forms(saved[value], saved["0"], SPECIALIZED_CASES, form)
    # the default's 16-bit rule is exercised both ways (x pairs need TCONV_UNIT_STRIDE_X_PAIRS)
    pairs = [unit_stride_flags(names[0])["x_pairs"] for _, mode, _, names in saved["1"] if mode != "tf32"]
    assert any(pairs) == UNIT_STRIDE_X_PAIRS and not all(pairs), pairs


def test_unit_stride_persistent_switch(tmp_path):
    """Under TCONV_UNIT_STRIDE_PERSISTENT 1 and 3 (with TCONV_UNIT_STRIDE_SPECIALIZED=2, so that 16-bit calls take the
    specialized form too) each case meets the precision contract with every gradient in TF32, bf16 and fp16; the
    forward runs the persistent kernel under both and not under 0, and its output (staged through held stage slots,
    or from registers for tiles of fewer than two stages) equals the one-tile-a-block kernel's bit for bit
    (SWITCHED_UNIT_STRIDE_SCRIPT)."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    if os.environ.get("TCONV_UNIT_STRIDE_WIDE_ROWS", "1") == "0":
        pytest.skip("the wide-rows tile is switched off")
    switches = json.dumps({"TCONV_UNIT_STRIDE_SPECIALIZED": "2"})
    saved = run_under_switch(SWITCHED_UNIT_STRIDE_SCRIPT, tmp_path, "TCONV_UNIT_STRIDE_PERSISTENT",
                             values=("0", "1", "3"), args=(switches, "PERSISTENT_CASES"))
    for value, form in (("0", "true, false"), ("1", "true, true"), ("3", "true, true")):
        assert_unit_stride_forms(saved[value], saved["0"], PERSISTENT_CASES, form)


# The 64-channel weights-as-A tile of 256 rows on the warp-specialized form (TCONV_UNIT_STRIDE_SPECIALIZED_64,
# development, default 0), with the half tile off so that every 64-channel call takes the 256-row tile: output
# channels 64 and fewer (50, 40: a partial channel tile), T 3, 5 and 7, a partial channel stage (C_in 40), 147 tiles
# (the persistent kernel's blocks take many), 2D and 3D, 16-bit x in position pairs (the last, where contiguous).
# C_in 33-64 puts grad_input on the tile too. (dims, batch, C_in, C_out, kernel, padding, dilation, spatial, bias)
SPECIALIZED_64_CASES = [
    (3, 2, 48, 64, [3, 3, 3], [1, 1, 1], [1, 1, 1], [4, 6, 33], True),
    (2, 3, 40, 50, [3, 5], [1, 2], [1, 1], [7, 45], False),
    (2, 2, 64, 64, [1, 7], [0, 3], [1, 1], [5, 301], True),
    (3, 1, 32, 40, [2, 1, 5], [0, 0, 2], [1, 1, 1], [3, 3, 9], True),
    (2, 4, 48, 64, [3, 3], [1, 1], [1, 1], [96, 96], True),
    (2, 2, 48, 64, [3, 5], [1, 2], [1, 1], [9, 40], True),
]


def test_unit_stride_specialized_64_switch(tmp_path):
    """Under TCONV_UNIT_STRIDE_SPECIALIZED_64=1 (with TCONV_UNIT_STRIDE_SPECIALIZED=2 for 16-bit calls too, and
    TCONV_UNIT_STRIDE_HALF_TILE=0) each case meets the precision contract with every gradient in TF32, bf16 and fp16,
    the forward runs the specialized kernel (and under TCONV_UNIT_STRIDE_PERSISTENT=3 its persistent one), and its
    output equals the 256-row tile's other form bit for bit (SWITCHED_UNIT_STRIDE_SCRIPT)."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    if os.environ.get("TCONV_UNIT_STRIDE_WEIGHTS_AS_A", "1") == "0":
        pytest.skip("the weights-as-A tiles are switched off")
    base = {"TCONV_UNIT_STRIDE_SPECIALIZED": "2", "TCONV_UNIT_STRIDE_HALF_TILE": "0"}
    saved = run_under_switch(SWITCHED_UNIT_STRIDE_SCRIPT, tmp_path, "TCONV_UNIT_STRIDE_SPECIALIZED_64",
                             values=("0", "1"), args=(json.dumps(base), "SPECIALIZED_64_CASES"))
    persistent = run_under_switch(SWITCHED_UNIT_STRIDE_SCRIPT, tmp_path, "TCONV_UNIT_STRIDE_PERSISTENT", values=("3",),
                                  args=(json.dumps({**base, "TCONV_UNIT_STRIDE_SPECIALIZED_64": "1"}),
                                        "SPECIALIZED_64_CASES"))
    assert_unit_stride_forms(saved["0"], saved["0"], SPECIALIZED_64_CASES, "false, false")
    assert_unit_stride_forms(saved["1"], saved["0"], SPECIALIZED_64_CASES, "true, false")
    assert_unit_stride_forms(persistent["3"], saved["0"], SPECIALIZED_64_CASES, "true, true")


UNIT_STRIDE_HALF_TILE = os.environ.get("TCONV_UNIT_STRIDE_HALF_TILE", "1") or "1"


@pytest.mark.parametrize("channels, kernel, half", [(64, [1, 3, 3], True), (64, [1, 3, 5], True),
                                                    (64, [1, 1, 7], True), (64, [2, 3, 3], True),
                                                    (64, [3, 3, 3], False), (64, [3, 3, 7], False),
                                                    (128, [1, 3, 3], False), (32, [1, 3, 3], False)])
def test_unit_stride_half_tile_where_the_rule_takes_it(channels, kernel, half):
    """fp32 unit-stride forwards and grad_inputs of 64 output channels whose K (C_in x taps) is at most 1152, and
    16-bit ones of 64 channels at T 3 whatever their K (StripUnitStrideHalfTileRule, igemm_config.h), run
    StripUnitStrideForwardHalfTile's kernel (128 rows, one warpgroup: `UnitStrideTile<128, ...` in the name); a deeper
    fp32 K, 128 channels, the 32-channel tap-pairs tiles at K 288 (below the rule's kTapPairsMinK) and 16-bit T 5 or 7
    keep the 256-row tile.
    TCONV_UNIT_STRIDE_HALF_TILE=0 keeps every call off it, =2 puts every call with a kernel on it (64 channels; fp32,
    or 16-bit at T 3). The calls meet the precision contract against float64 with every gradient (run_case), in TF32
    and bf16."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")
    half_fp32 = {"0": False, "2": channels == 64}.get(UNIT_STRIDE_HALF_TILE, half)
    half_16bit = UNIT_STRIDE_HALF_TILE != "0" and channels == 64 and kernel[2] == 3
    padding = [k // 2 for k in kernel]

    def unit_stride_kernels(dtype):
        x = torch.randn(2, channels, 4, 5, 300, device="cuda").to(dtype).requires_grad_()
        w = torch.randn(channels, channels, *kernel, device="cuda").to(dtype)
        with precision("tf32"), tconv._ops.use_algorithm("igemm_strip"), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = tconv.conv_transpose3d(x, w, padding=padding)
            out.backward(torch.randn_like(out))
            torch.cuda.synchronize()
        return [e.name for e in prof.events() if "strip_unit_stride_forward_kernel" in e.name]
    for dtype, half in ((torch.float32, half_fp32), (torch.bfloat16, half_16bit)):
        names = unit_stride_kernels(dtype)
        assert len(names) == 2, names  # the forward and grad_input (C_in = C_out here)
        assert all(("UnitStrideTile<128" in n) == half for n in names), (dtype, names)
    for mode in ("tf32", "bf16"):
        run_case(3, 2, channels, channels, 1, kernel, [1, 1, 1], padding, [0, 0, 0], [1, 1, 1], [4, 5, 300], True,
                 mode=mode, layout="contiguous", seed=channels + sum(kernel), algorithm="igemm_strip")


UNIT_STRIDE_X_PAIRS = os.environ.get("TCONV_UNIT_STRIDE_X_PAIRS", "1") not in ("", "0")


@pytest.mark.parametrize("cout", [64, 128])
def test_unit_stride_x_pairs_where_planned(cout):
    """16-bit x takes the two-position loads (the kernel's last template argument, kXPairs) where W_in and the W
    padding are even and x is W-contiguous and aligned, unless TCONV_UNIT_STRIDE_X_PAIRS=0; an odd W_in, an odd W
    padding, a channels_last input and fp32 data keep the per-position loads."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernels run on sm_90a builds on compute capability 9.0")

    def x_pairs_flags(dtype, w_in, w_padding, channels_last=False):
        x = torch.randn(2, 24, 4, 5, w_in, device="cuda", dtype=dtype)
        if channels_last:
            x = x.contiguous(memory_format=torch.channels_last_3d)
        w = torch.randn(24, cout, 3, 3, 5, device="cuda", dtype=dtype)
        with precision("tf32"), tconv._ops.use_algorithm("igemm_strip"), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            tconv.conv_transpose3d(x, w, padding=(1, 1, w_padding))
            torch.cuda.synchronize()
        names = [e.name for e in prof.events() if "strip_unit_stride_forward_kernel" in e.name]
        assert names, "the unit-stride forward did not run"
        return {unit_stride_flags(n)["x_pairs"] for n in names}

    for dtype in (torch.bfloat16, torch.float16):
        assert x_pairs_flags(dtype, 40, 2) == {UNIT_STRIDE_X_PAIRS}
        assert x_pairs_flags(dtype, 41, 2) == {False}
        assert x_pairs_flags(dtype, 40, 1) == {False}
        assert x_pairs_flags(dtype, 40, 2, channels_last=True) == {False}
    assert x_pairs_flags(torch.float32, 40, 2) == {False}


def test_strip_grad_input_refusals():
    """Forcing the strip kernel where it cannot run is an error (exact fp32, W stride 4, odd padding, a misaligned
    grad_output in fp32 and in bf16); "auto" then takes another kernel and stays correct."""
    if not wgmma_kernels_run():
        pytest.skip("the strip kernel runs on sm_90a builds on compute capability 9.0")
    gen = torch.Generator(device="cuda").manual_seed(5)
    w = torch.randn(24, 16, 16, device="cuda", generator=gen)
    cases = [("fp32", torch.float32, 8, 4, 0), ("bf16", torch.bfloat16, 8, 4, 1), ("tf32", torch.float32, 4, 0, 0),
             ("tf32", torch.float32, 8, 2, 0), ("tf32", torch.float32, 8, 4, 1)]
    for mode, dtype, stride, padding, offset in cases:
        x = torch.randn(2, 24, 30, device="cuda", generator=gen).to(dtype).requires_grad_()
        wd = w.to(dtype)
        with precision(mode):
            out = tconv.conv_transpose1d(x, wd, stride=stride, padding=padding)
            grad = torch.randn(out.numel() + offset, device="cuda", generator=gen).to(dtype)[offset:].view(out.shape)
            with tconv._ops.use_algorithm("igemm_strip"), pytest.raises(RuntimeError, match="igemm_strip"):
                torch.autograd.grad(tconv.conv_transpose1d(x, wd, stride=stride, padding=padding), x, grad)
            ours = torch.autograd.grad(out, x, grad)[0]
            theirs = torch.autograd.grad(F.conv_transpose1d(x, wd, stride=stride, padding=padding), x, grad)[0]
        x64 = x.detach().double().requires_grad_()
        ref = torch.autograd.grad(F.conv_transpose1d(x64, wd.double(), stride=stride, padding=padding), x64,
                                  grad.double())[0]
        ideal = None  # TF32 mode: float64 on TF32-rounded operands (cuDNN runs small shapes in exact fp32)
        if mode == "tf32":
            ideal = torch.autograd.grad(F.conv_transpose1d(x64, round_to_tf32(wd), stride=stride, padding=padding),
                                        x64, round_to_tf32(grad))[0]
        check_close(f"grad_input {mode} s{stride} p{padding} +{offset}", ours, ref, theirs, mode, ideal)


def test_forced_igemm_refuses_double():
    x = torch.rand(1, 4, 5, 5, device="cuda", dtype=torch.float64)
    w = torch.rand(4, 4, 3, 3, device="cuda", dtype=torch.float64)
    with tconv._ops.use_algorithm("igemm"), pytest.raises(RuntimeError, match="igemm"):
        tconv.conv_transpose2d(x, w)


def test_tf32_flag_is_read_at_call_time():
    """TF32 off must give exact-fp32 results from tconv (3xTF32), TF32 on the faster TF32 ones."""
    x = torch.randn(2, 64, 24, 24, device="cuda")
    w = torch.randn(64, 64, 3, 3, device="cuda")
    ref = F.conv_transpose2d(x.double(), w.double())
    errors = {}
    for mode in ("fp32", "tf32"):
        with precision(mode):
            errors[mode] = rel_err(tconv.conv_transpose2d(x, w), ref)
    assert errors["fp32"] < 1e-6 < errors["tf32"], errors


def random_config(rng):
    dims = rng.randint(1, 3)
    groups = rng.choice([1, 1, 2, 3, 4])
    cin, cout = groups * rng.randint(1, 5), groups * rng.randint(1, 5)
    kernel = [rng.randint(1, 5) for _ in range(dims)]
    stride = [rng.randint(1, 4) for _ in range(dims)]
    dilation = [rng.randint(1, 3) for _ in range(dims)]
    padding = [rng.randint(0, d * (k - 1)) for k, d in zip(kernel, dilation)]
    output_padding = [rng.randint(0, max(s, d) - 1) for s, d in zip(stride, dilation)]
    size_cap = {1: 40, 2: 12, 3: 6}[dims]
    spatial = [rng.randint(1, size_cap) for _ in range(dims)]
    batch = rng.choice([0, 1, 2, 3])
    full = [(i - 1) * s - 2 * p + d * (k - 1) + op + 1
            for i, k, s, p, op, d in zip(spatial, kernel, stride, padding, output_padding, dilation)]
    if any(o <= 0 for o in full):
        padding = [0] * dims
    return (dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial,
            rng.random() < 0.5)


@pytest.mark.parametrize("algorithm", ALGORITHMS + ["igemm", "igemm_mma", "igemm_window", "igemm_phase_split",
                                                   "igemm_fold", "grouped", "grouped_mma", "grouped_tiled",
                                                   "one_tap"])
@pytest.mark.parametrize("seed", range(240))
def test_random_sweep(seed, algorithm, poison_allocator):
    rng = random.Random(1000 + seed)
    case = random_config(rng)
    mode = MODES[seed % 4]
    if algorithm == "grouped" and not grouped_supported(case, mode):
        pytest.skip("not a grouped-kernel shape")
    if algorithm == "grouped_mma" and not grouped_mma_supported(case, mode):
        pytest.skip("not a shape of the tensor-core grouped kernels")
    if algorithm == "grouped_tiled" and not grouped_tiled_supported(case, mode):
        pytest.skip("not a shape of the tiled grouped forward")
    if algorithm == "one_tap" and not one_tap_supported(case, mode):
        pytest.skip("not a one-tap shape")
    layout = ["contiguous", "channels_last", "strided"][(seed // 4) % 3]
    run_case(*case, mode=mode, layout=layout, seed=seed, poison=poison_allocator, algorithm=algorithm)


def one_tap_supported(case, mode):
    """Mirror of one_tap_forward_possible() in conv_transpose_one_tap.cu: groups 1, a W kernel of at most 4, and along
    every dimension the taps within one stride (dilation x (kernel - 1) < stride)."""
    kernel, stride, dilation = case[5], case[6], case[9]
    return case[4] == 1 and mode != "fp64" and kernel[-1] <= 4 and all(
        d * (k - 1) < s for k, s, d in zip(kernel, stride, dilation))


# The one-tap forward (conv_transpose_one_tap.cu): fam13's k3 s5 d2 with padding and bias; input channels over one
# chunk of 32 (40) and output channels over one tile of 64 with a partial quad (70); every W kernel 1-4; kernel ==
# stride (no empty phase); 1D with output padding and a padding over the stride; 3D; one output channel.
ONE_TAP_CASES = {
    "fam13_like": (2, 2, 32, 64, 1, [3, 3], [5, 5], [1, 1], [0, 0], [2, 2], [6, 9], True),
    "chunks_and_tiles": (2, 2, 40, 70, 1, [2, 4], [3, 4], [0, 2], [1, 0], [1, 1], [5, 11], True),
    "w_kernel_1": (2, 1, 8, 12, 1, [1, 1], [2, 3], [0, 1], [1, 2], [1, 1], [4, 7], False),
    "k2s2": (2, 2, 16, 24, 1, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], [7, 12], True),
    "1d_pad_over_stride": (1, 3, 24, 33, 1, [3], [7], [9], [4], [3], [37], True),
    "3d_k2s3d2": (3, 2, 12, 20, 1, [2, 2, 2], [3, 3, 3], [1, 0, 1], [0, 1, 0], [2, 1, 2], [3, 4, 5], True),
    "one_channel": (2, 1, 3, 1, 1, [3, 3], [4, 4], [1, 1], [0, 0], [1, 1], [5, 40], True),
    "w_tiles": (2, 2, 16, 24, 1, [2, 3], [3, 4], [0, 1], [0, 0], [1, 1], [3, 150], False),  # 3 tiles of 64 along W
}


@pytest.mark.parametrize("layout", ["contiguous", "channels_last", "strided"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(ONE_TAP_CASES))
def test_one_tap_meets_the_contract(name, mode, layout, poison_allocator):
    case = ONE_TAP_CASES[name]
    assert one_tap_supported(case, mode)
    run_case(*case, mode=mode, layout=layout, seed=61, poison=poison_allocator, algorithm="one_tap")


def test_one_tap_is_what_runs_and_refuses_what_it_cannot():
    """One launch of the one-tap kernel under "one_tap" (the backward as "auto"); a call it cannot run is refused with
    the conditions."""
    gen = torch.Generator(device="cuda").manual_seed(13)
    x = torch.randn(2, 32, 6, 9, device="cuda", generator=gen).contiguous(memory_format=torch.channels_last)
    w = torch.randn(32, 40, 3, 3, device="cuda", generator=gen)
    with tconv._ops.use_algorithm("one_tap"), \
            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        tconv.conv_transpose2d(x, w, stride=5, padding=1, dilation=2)
        torch.cuda.synchronize()
    names = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    assert sum("tconv_one_tap_forward_kernel" in n for n in names) == 1, names
    for bad in ({"stride": 4, "dilation": 2}, {"stride": 5, "groups": 2}):
        weight = w if "groups" not in bad else torch.randn(32, 20, 3, 3, device="cuda")
        with tconv._ops.use_algorithm("one_tap"), pytest.raises(RuntimeError, match="one_tap algorithm"):
            tconv.conv_transpose2d(x, weight, **bad)


def one_tap_16bit_runs(seed):
    """Each one-tap case in both 16-bit modes and three layouts under "one_tap", held to the contract by run_case
    (allocator poisoned): the CUDA kernels' names of each run (for the switch tests' subprocesses)."""
    from conftest import poison_cuda_allocator
    names = []
    for i, case in enumerate(ONE_TAP_CASES.values()):
        for mode in ("bf16", "fp16"):
            for layout in ("contiguous", "channels_last", "strided"):
                with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                    run_case(*case, mode=mode, layout=layout, seed=seed + i, poison=poison_cuda_allocator,
                             algorithm="one_tap")
                names.append([e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA])
    return names


# TCONV_ONE_TAP_MMA=1 (development; unset 1): fp16 / bf16 one-tap forwards on the k16 mma.sync kernel. Under 1, every
# one-tap case in both 16-bit modes and three layouts meets the contract, and the forward runs the mma kernel.
def test_one_tap_mma_switch(tmp_path):
    code = """
import sys, torch
import test_conv_transpose_gpu as t
torch.save(t.one_tap_16bit_runs(62), sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_ONE_TAP_MMA", values=("1", "0"))
    for on, off in zip(saved["1"], saved["0"]):
        assert any("one_tap_forward_mma_kernel" in n for n in on), on
        assert any("one_tap_forward_kernel" in n for n in off), off
        assert not any("one_tap_forward_mma" in n for n in off), off


# The one-tap backward kernels' switches (development, unset 1): TCONV_ONE_TAP_GRAD_INPUT, TCONV_ONE_TAP_GRAD_WEIGHT.
# Under 1, "one_tap" runs the pass on its one-tap mma.sync kernel wherever it can (fp16 / bf16), "auto" for channels-
# last calls with empty phases: every one-tap case in both 16-bit modes and three layouts meets the contract (every
# gradient) with that kernel, and a fam13-like channels-last call takes it under "auto"; under 0 it never runs.
@pytest.mark.parametrize("switch,kernel", [("TCONV_ONE_TAP_GRAD_INPUT", "one_tap_grad_input_kernel"),
                                           ("TCONV_ONE_TAP_GRAD_WEIGHT", "one_tap_grad_weight_kernel")])
def test_one_tap_backward_switch(tmp_path, switch, kernel):
    code = f"""
import sys, torch
import test_conv_transpose_gpu as t
from conftest import poison_cuda_allocator
runs = t.one_tap_16bit_runs(63)
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
    t.run_case(*t.ONE_TAP_CASES["fam13_like"], mode="bf16", layout="channels_last", seed=64,
               poison=poison_cuda_allocator, algorithm="auto", grad_like_output=True)
runs.append([e.name for e in prof.events()])
torch.save([any("{kernel}" in n for n in names) for names in runs], sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, switch, values=("1", "0"))
    assert all(saved["1"]) and len(saved["1"]) == 2 * 3 * len(ONE_TAP_CASES) + 1, saved["1"]
    assert not any(saved["0"]), saved["0"]


# TCONV_ONE_TAP_RUNS=0 (development; unset 1): W-innermost outputs on the one-tap forward's runs form (each channel's
# run assembled in shared memory, stored along the line) where a block's run fits (W stride <= 5). Under 1, every
# one-tap case in every mode meets the contract contiguous and strided under "one_tap" (every gradient; the backward
# as "auto"), the form runs where it fits, and a fam13-like contiguous call takes the one-tap forward under "auto" in
# every dtype; under 0 "auto" keeps it off contiguous calls.
def test_one_tap_runs_switch(tmp_path):
    code = """
import sys, torch
import test_conv_transpose_gpu as t
from conftest import poison_cuda_allocator
runs_form = []  # (whether the form fits the contiguous call, whether it ran)
for i, case in enumerate(t.ONE_TAP_CASES.values()):
    for mode in t.MODES:
        for layout in ("contiguous", "strided"):
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                t.run_case(*case, mode=mode, layout=layout, seed=65 + i, poison=poison_cuda_allocator,
                           algorithm="one_tap")
            if layout == "contiguous":
                ran = any("tconv_one_tap_forward" in e.name and ", true>" in e.name for e in prof.events())
                runs_form.append((case[6][-1] * 64 <= 320, ran))
taken = []
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    x = torch.randn(2, 32, 6, 9, device="cuda").to(dtype)
    w = torch.randn(32, 64, 3, 3, device="cuda").to(dtype)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        t.tconv.conv_transpose2d(x, w, stride=5, padding=1, dilation=2)
        torch.cuda.synchronize()
    taken.append(any("tconv_one_tap_forward" in e.name for e in prof.events()))
torch.save({"runs_form": runs_form, "auto": taken}, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_ONE_TAP_RUNS", values=("1", "0"))
    assert all(fits == ran for fits, ran in saved["1"]["runs_form"]), saved["1"]["runs_form"]
    assert any(ran for _, ran in saved["1"]["runs_form"])
    assert all(saved["1"]["auto"]), saved["1"]["auto"]
    assert not any(ran for _, ran in saved["0"]["runs_form"]) and not any(saved["0"]["auto"]), saved["0"]


def test_auto_takes_one_tap_for_channels_last_outputs_with_empty_phases():
    """The one-tap rule (conv_transpose.h, one_tap_forward_preferred): a fam13-like call (k3 s5 d2, 32 input channels)
    runs a one-tap forward kernel (FFMA for fp32, mma.sync for fp16 / bf16) under "auto" channels-last in every dtype,
    and contiguous too on the runs form (unless TCONV_ONE_TAP_RUNS=0); a k2 s2 call (no empty phase) stays on the
    GEMMs."""
    gen = torch.Generator(device="cuda").manual_seed(14)

    def one_tap_launches(dtype, memory_format, kernel=3, stride=5, dilation=2):
        x = torch.randn(2, 32, 6, 9, device="cuda", generator=gen).to(dtype).contiguous(memory_format=memory_format)
        w = torch.randn(32, 64, kernel, kernel, device="cuda", generator=gen).to(dtype)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            tconv.conv_transpose2d(x, w, stride=stride, padding=1, dilation=dilation)
            torch.cuda.synchronize()
        return sum("tconv_one_tap_forward" in e.name for e in prof.events()
                   if e.device_type == torch.autograd.DeviceType.CUDA)
    expected = 0 if os.environ.get("TCONV_ONE_TAP_AUTO", "1") == "0" else 1
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        assert one_tap_launches(dtype, torch.channels_last) == expected, dtype
        runs = os.environ.get("TCONV_ONE_TAP_RUNS", "1") != "0"  # (test_one_tap_runs_switch)
        assert one_tap_launches(dtype, torch.contiguous_format) == (expected if runs else 0), dtype
    assert one_tap_launches(torch.bfloat16, torch.channels_last, kernel=2, stride=2, dilation=1) == 0


def grouped_tiled_supported(case, mode):
    """Mirror of grouped_tiled_forward_supported() in conv_transpose_grouped.cu: groups 1, at most 32 input channels,
    more than 16 output channels, a tile's weights (taps x C_in rounded up to a power of two x 16) within 48 KiB."""
    dims, batch, cin, cout, groups, kernel = case[:6]
    taps = 1
    for k in kernel:
        taps *= k
    acc_bytes = 8 if mode == "fp64" else 4
    tile_weight_bytes = taps * (1 << (cin - 1).bit_length()) * 16 * acc_bytes
    return groups == 1 and cin <= 32 and cout > 16 and tile_weight_bytes <= 48 * 1024


# The grouped forward kernel in tiles of 16 output channels (session 60, "grouped_tiled"): tiny-K shapes (fam13's k3 s5
# d2 at 32 input channels, k2 s2 up-convs), a partial last tile (40 = 16 + 16 + 8), 1D with bias and output padding,
# 3D, and a C_in that is not a power of two.
GROUPED_TILED_CASES = {
    "fam13_like": (2, 2, 32, 64, 1, [3, 3], [5, 5], [1, 1], [0, 0], [2, 2], [6, 9], False),
    "k2s2_partial_tile": (2, 2, 16, 40, 1, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], [7, 12], True),
    "1d_k3s2d2_op": (1, 3, 24, 33, 1, [3], [2], [1], [1], [2], [37], True),
    "3d_k2s2": (3, 2, 32, 24, 1, [2, 2, 2], [2, 2, 2], [0, 0, 0], [0, 0, 0], [1, 1, 1], [3, 4, 5], False),
    "2d_k3s1_c5": (2, 1, 5, 17, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [5, 6], True),
}


@pytest.mark.parametrize("layout", ["contiguous", "channels_last", "strided"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(GROUPED_TILED_CASES))
def test_grouped_tiled_meets_the_contract(name, mode, layout, poison_allocator):
    case = GROUPED_TILED_CASES[name]
    assert grouped_tiled_supported(case, mode)
    run_case(*case, mode=mode, layout=layout, seed=60, poison=poison_allocator, algorithm="grouped_tiled")


def test_grouped_tiled_is_what_runs_and_stays_out_of_auto():
    """One launch of the grouped forward kernel per 16-channel tile under "grouped_tiled" (the backward as "auto");
    none under "auto"; a call it cannot run is refused with the conditions."""
    gen = torch.Generator(device="cuda").manual_seed(13)
    x = torch.randn(2, 32, 6, 9, device="cuda", generator=gen)
    w = torch.randn(32, 40, 3, 3, device="cuda", generator=gen)

    def forward_launches(algorithm):
        with tconv._ops.use_algorithm(algorithm), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            tconv.conv_transpose2d(x, w, stride=5, padding=1, dilation=2)
            torch.cuda.synchronize()
        return sum("tconv_grouped_forward_kernel" in e.name for e in prof.events()
                   if e.device_type == torch.autograd.DeviceType.CUDA)
    assert forward_launches("grouped_tiled") == 3
    assert forward_launches("auto") == 0
    with tconv._ops.use_algorithm("grouped_tiled"), pytest.raises(RuntimeError, match="grouped_tiled algorithm"):
        tconv.conv_transpose2d(x, torch.randn(32, 20, 3, 3, device="cuda"), stride=5, groups=2)


def random_grouped_config(rng):
    """Few channels per group: groups 1..8, 1..16 channels per group on each side (auto takes the
    grouped kernels when the product is <= 128)."""
    case = list(random_config(rng))
    groups = rng.randint(1, 8)
    case[2], case[3], case[4] = groups * rng.randint(1, 16), groups * rng.randint(1, 16), groups
    return tuple(case)


@pytest.mark.parametrize("algorithm", ["auto", "grouped", "grouped_mma"])
@pytest.mark.parametrize("seed", range(120))
def test_random_sweep_grouped(seed, algorithm, poison_allocator):
    rng = random.Random(5000 + seed)
    case = random_grouped_config(rng)
    mode = MODES[seed % 4]
    if algorithm == "grouped" and not grouped_supported(case, mode):
        pytest.skip("not a grouped-kernel shape")
    if algorithm == "grouped_mma" and not grouped_mma_supported(case, mode):
        pytest.skip("not a shape of the tensor-core grouped kernels")
    if algorithm == "grouped_tiled" and not grouped_tiled_supported(case, mode):
        pytest.skip("not a shape of the tiled grouped forward")
    layout = ["contiguous", "channels_last", "strided"][(seed // 4) % 3]
    run_case(*case, mode=mode, layout=layout, seed=seed, poison=poison_allocator, algorithm=algorithm)


@pytest.mark.parametrize("algorithm", ["auto", "grouped"])
@pytest.mark.parametrize("dims", [1, 2, 3])
def test_gradcheck_fp64(dims, algorithm):
    with tconv._ops.use_algorithm(algorithm):
        _gradcheck_fp64(dims)


def _gradcheck_fp64(dims):
    gen = torch.Generator(device="cuda").manual_seed(dims)
    x = torch.randn(2, 4, *([3] * dims), dtype=torch.float64, device="cuda", generator=gen, requires_grad=True)
    w = torch.randn(4, 3, *([2] * dims), dtype=torch.float64, device="cuda", generator=gen, requires_grad=True)
    b = torch.randn(6, dtype=torch.float64, device="cuda", generator=gen, requires_grad=True)
    fn = lambda *a: TCONV_FN[dims](*a, stride=2, padding=1, output_padding=1, groups=2, dilation=1)
    assert torch.autograd.gradcheck(fn, (x, w, b))
    b3 = b[:3].detach().clone().requires_grad_()
    fn = lambda *a: TCONV_FN[dims](*a, stride=1, padding=0, output_padding=1, groups=1, dilation=2)
    assert torch.autograd.gradcheck(fn, (x, w, b3))


@pytest.mark.skipif(not tconv._ops.USE_TORCH_LIBRARY, reason="torch.library custom-op API unavailable")
@pytest.mark.parametrize("dims", [1, 2, 3])
def test_opcheck_cuda(dims):
    from torch.library import opcheck

    x = torch.rand(2, 4, *([4] * dims), device="cuda", requires_grad=True)
    w = torch.rand(4, 3, *([3] * dims), device="cuda", requires_grad=True)
    b = torch.rand(6, device="cuda", requires_grad=True)
    s, p, op, d = [2] * dims, [1] * dims, [1] * dims, [1] * dims
    opcheck(torch.ops.tconv.conv_transpose.default, (x, w, b, s, p, op, d, 2))
    g = torch.randn(tconv._args.output_shape(x.shape, w.shape, s, p, op, d, 2), device="cuda")
    opcheck(torch.ops.tconv.conv_transpose_grad_input.default, (g, w.detach(), list(x.shape), s, p, d, 2))
    opcheck(torch.ops.tconv.conv_transpose_grad_weight.default, (g, x.detach(), list(w.shape), s, p, d, 2))
    opcheck(torch.ops.tconv.conv_transpose_grad_bias.default, (g,))


@pytest.mark.parametrize("algorithm", ["auto", "igemm_phase_split"])  # the split builds its weights on the GPU
def test_cuda_graph_capture_and_replay(algorithm):
    with tconv._ops.use_algorithm(algorithm):
        _cuda_graph_capture_and_replay()


def _cuda_graph_capture_and_replay():
    mod = tconv.ConvTranspose2d(8, 6, 3, stride=2, padding=1, output_padding=1, groups=2).cuda()
    static_x = torch.rand(2, 8, 9, 7, device="cuda", requires_grad=True)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):  # warm-up outside capture, as torch's graph docs require
        for _ in range(2):
            mod(static_x).sum().backward()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    mod.zero_grad(set_to_none=True)
    static_x.grad = None
    with torch.cuda.graph(graph):
        static_out = mod(static_x)
        static_out.sum().backward()
    for _ in range(3):
        new_x = torch.rand_like(static_x)
        with torch.no_grad():
            static_x.copy_(new_x)
        graph.replay()
        torch.cuda.synchronize()
        # The graph was captured with torch's default flags (TF32 allowed): compare at TF32 level.
        ref = F.conv_transpose2d(new_x.double(), mod.weight.double(), mod.bias.double(), 2, 1, 1, 2)
        assert rel_err(static_out, ref) < 2e-3


def test_phase_split_is_taken_where_planned(monkeypatch):
    """The phase split runs where plan() allows it (HiFi-GAN's pattern) and not at W stride 1, and agrees
    with the unsplit GEMM (TF32 off: both exact to fp32 rounding)."""
    from tconv import _phase_split

    calls = []
    apply = _phase_split.apply
    monkeypatch.setattr(_phase_split, "apply", lambda *a: calls.append(a[0]) or apply(*a))
    gen = torch.Generator(device="cuda").manual_seed(11)
    for stride, splits in ((8, 1), (1, 0)):
        x = torch.randn(2, 40, 37, device="cuda", generator=gen, requires_grad=True)
        w = torch.randn(40, 24, 16, device="cuda", generator=gen)
        grads = []
        for algorithm in ("igemm_phase_split", "igemm"):
            with precision("fp32"), tconv._ops.use_algorithm(algorithm):
                out = tconv.conv_transpose1d(x, w, stride=stride, padding=4)
                grads.append(torch.autograd.grad(out, x, torch.ones_like(out))[0])
        assert len(calls) == splits, (stride, calls)
        torch.testing.assert_close(grads[0], grads[1], atol=1e-4, rtol=1e-4)
        calls.clear()
    # "auto" splits this HiFi-GAN-like call in both fp32 modes (tconv/_phase_split.py auto_prefers), except where
    # the strip kernel runs it whole (Hopper, TF32 mode).
    x = torch.randn(2, 40, 37, device="cuda", generator=gen, requires_grad=True)
    w = torch.randn(40, 24, 16, device="cuda", generator=gen)
    for mode, splits in (("tf32", 0 if wgmma_kernels_run() else 1), ("fp32", 1)):
        with precision(mode):
            out = tconv.conv_transpose1d(x, w, stride=8, padding=4)
            torch.autograd.grad(out, x, torch.ones_like(out))
        assert len(calls) == splits, (mode, calls)
        calls.clear()


def auto_gather_kernel_names(mode, call):
    """The gather GEMM kernels (tconv_igemm_gather_tf32_kernel instantiations) that call() launches under "auto" in
    precision mode `mode`; at least one."""
    with precision(mode), tconv._ops.use_algorithm("auto"), \
            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        call()
        torch.cuda.synchronize()
    names = [e.name for e in prof.events() if "gather_tf32_kernel" in e.name]
    assert names, [e.name for e in prof.events()]
    return names


def windowed(names):
    """Per gather kernel name: whether it is the W-tap window form (kWindow, the kernel's last template argument)."""
    return [n.split(">(")[0].rsplit(",", 1)[1].strip() == "true" for n in names]


def test_exact_two_tap_window_where_planned():
    """Exact fp32 (3xTF32) forwards with two W taps per phase take the W-tap window under "auto" where its extra
    rows are under 1 % of a line (HiFi-GAN's k16 s8 on 128-position lines), not on 16-position lines (DCGAN-like);
    both stay within the precision contract (run_case)."""
    def forward_windows(length):
        gen = torch.Generator(device="cuda").manual_seed(length)
        x = torch.randn(2, 40, length, device="cuda", generator=gen)
        w = torch.randn(40, 24, 16, device="cuda", generator=gen)
        return windowed(auto_gather_kernel_names("fp32", lambda: tconv.conv_transpose1d(x, w, stride=8, padding=4)))
    assert all(forward_windows(128))
    assert not any(forward_windows(16))
    for length, seed in ((128, 41), (16, 42)):
        run_case(1, 2, 40, 24, 1, [16], [8], [4], [0], [1], [length], True, mode="fp32", layout="contiguous",
                 seed=seed, algorithm="auto")


@pytest.mark.parametrize("mode", ["tf32", "bf16"])
def test_window_span2_rule_where_planned(mode):
    """W-strided forwards with three W taps at consecutive shifts (k3 s2 d2) keep the W-tap window under "auto" only
    from 128 input channels (igemm_config.h, kWindowSpan2MinChannels; run 372); stride 1 with span 4 keeps it at 32.
    Every call stays within the precision contract (run_case)."""
    def forward_windows(cin, stride, padding, dilation):
        gen = torch.Generator(device="cuda").manual_seed(cin + stride)
        dtype = torch.bfloat16 if mode == "bf16" else torch.float32
        x = torch.randn(2, cin, 256, device="cuda", generator=gen).to(dtype)
        w = torch.randn(cin, 32, 3, device="cuda", generator=gen).to(dtype)
        return windowed(auto_gather_kernel_names(
            mode, lambda: tconv.conv_transpose1d(x, w, stride=stride, padding=padding, dilation=dilation)))
    assert not any(forward_windows(32, 2, 1, 2)) and not any(forward_windows(64, 2, 1, 2))
    assert all(forward_windows(128, 2, 1, 2))
    for cin, stride, seed in ((32, 2, 51), (128, 2, 52)):
        run_case(1, 2, cin, 32, 1, [3], [stride], [1], [0], [2], [256], True, mode=mode, layout="contiguous",
                 seed=seed, algorithm="auto")


@pytest.mark.parametrize("mode", ["tf32", "bf16"])
def test_concurrent_backward_matches_serial(mode, monkeypatch):
    """The concurrent backward (on by default; switched off here for the serial reference): a signature's first
    backward runs the passes one after the other and records their extra allocations and whether they fit the memory
    rule together (concurrent_backward_fits); later ones run grad_weight and grad_bias on the side stream where they
    fit. The gradients are the serial path's, bit for bit, and the current stream is the caller's again afterwards."""
    gen = torch.Generator(device="cuda").manual_seed(379)
    dtype = torch.bfloat16 if mode == "bf16" else torch.float32
    x = torch.randn(4, 64, 16, 16, device="cuda", generator=gen).to(dtype).requires_grad_()
    w = torch.randn(64, 32, 4, 4, device="cuda", generator=gen).to(dtype).requires_grad_()
    b = torch.randn(32, device="cuda", generator=gen).to(dtype).requires_grad_()
    dy = torch.randn(4, 32, 32, 32, device="cuda", generator=gen).to(dtype)

    def gradients():
        for t in (x, w, b):
            t.grad = None
        tconv.conv_transpose2d(x, w, b, stride=2, padding=1).backward(dy)
        return [t.grad.clone() for t in (x, w, b)]
    stream = torch.cuda.current_stream()
    monkeypatch.setattr(tconv._ops, "_NATIVE_BACKWARD", False)  # the Python path's side stream (the native one's:
    monkeypatch.setattr(tconv._ops, "_concurrent_fits", {})      # test_native_backward_matches_the_python_path)
    with precision(mode):
        monkeypatch.setattr(tconv._ops, "_CONCURRENT_BACKWARD", False)
        serial = gradients()
        assert not tconv._ops._concurrent_fits
        monkeypatch.setattr(tconv._ops, "_CONCURRENT_BACKWARD", True)
        runs = [gradients() for _ in range(3)]
    assert len(tconv._ops._concurrent_fits) == 1
    fits, grad_input_extra, grad_weight_extra = next(iter(tconv._ops._concurrent_fits.values()))
    assert grad_input_extra >= 0 and grad_weight_extra >= 0, (grad_input_extra, grad_weight_extra)
    assert fits == tconv._ops.concurrent_backward_fits(grad_input_extra, grad_weight_extra,
                                                       dy.numel() * dy.element_size(), w.numel() * w.element_size())
    # the side-stream path itself, whatever this shape's measured workspaces
    monkeypatch.setattr(tconv._ops, "_concurrent_fits", {})
    monkeypatch.setattr(tconv._ops, "concurrent_backward_fits", lambda *extras: True)
    with precision(mode):
        runs += [gradients() for _ in range(3)]
    assert next(iter(tconv._ops._concurrent_fits.values()))[0] is True
    for run in runs:
        for mine, theirs in zip(run, serial):
            assert torch.equal(mine, theirs)
    assert torch.cuda.current_stream() == stream


@pytest.mark.parametrize("mode", ["tf32", "bf16"])
def test_persistent_grad_input_keeps_the_backward_serial(mode, monkeypatch):
    """Where grad_input runs on the persistent unit_stride_mma grid (a fam08-like 1D call: stride 1, dilation 3), a
    signature's decision is one after the other although the memory rule holds; with
    _CONCURRENT_PERSISTENT_GRAD_INPUT it is the memory rule's. Both paths' gradients equal the serial ones, bit for
    bit."""
    gen = torch.Generator(device="cuda").manual_seed(389)
    dtype = torch.bfloat16 if mode == "bf16" else torch.float32
    x = torch.randn(4, 32, 4096, device="cuda", generator=gen).to(dtype).requires_grad_()
    w = torch.randn(32, 64, 5, device="cuda", generator=gen).to(dtype).requires_grad_()
    dy = torch.randn(4, 64, 4096 + 12, device="cuda", generator=gen).to(dtype)

    def gradients():
        for t in (x, w):
            t.grad = None
        tconv.conv_transpose1d(x, w, dilation=3).backward(dy)
        return [t.grad.clone() for t in (x, w)]
    monkeypatch.setattr(tconv._ops, "concurrent_backward_fits", lambda *extras: True)
    monkeypatch.setattr(tconv._ops, "_NATIVE_BACKWARD", False)  # every call on the Python path, whose choice is tested
    with precision(mode):
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            gradients()
            torch.cuda.synchronize()
        assert any("unit_stride_mma_kernel" in e.name for e in prof.events()), "grad_input is not the persistent grid"
        monkeypatch.setattr(tconv._ops, "_CONCURRENT_BACKWARD", False)
        serial = gradients()
        monkeypatch.setattr(tconv._ops, "_CONCURRENT_BACKWARD", True)
        for beside_persistent in (False, True):
            monkeypatch.setattr(tconv._ops, "_CONCURRENT_PERSISTENT_GRAD_INPUT", beside_persistent)
            monkeypatch.setattr(tconv._ops, "_concurrent_fits", {})
            runs = [gradients() for _ in range(3)]
            assert [entry[0] for entry in tconv._ops._concurrent_fits.values()] == [beside_persistent]
            for run in runs:
                for mine, theirs in zip(run, serial):
                    assert torch.equal(mine, theirs)


# (input shape, C_out, kernel, stride, padding, groups, mode, channels-last, bias, needs (x, w, b), the passes at once,
# in a stream of the caller's, native calls among the 3 after the reference)
NATIVE_BACKWARD_CASES = {
    "2d_dcgan_like_tf32": ([2, 64, 8, 8], 32, [4, 4], [2, 2], [1, 1], 1, "tf32", False, True, (1, 1, 1), False,
                           False, 2),
    "2d_cl_bf16_at_once": ([2, 64, 8, 8], 32, [4, 4], [2, 2], [1, 1], 1, "bf16", True, True, (1, 1, 1), True,
                           False, 2),
    "3d_cl_bf16_k2s2_at_once": ([2, 32, 6, 6, 6], 16, [2, 2, 2], [2, 2, 2], [0, 0, 0], 1, "bf16", True, False,
                                (1, 1, 0), True, False, 2),
    "1d_fp32_weight_only": ([2, 24, 50], 16, [5], [3], [2], 1, "fp32", False, True, (0, 1, 1), False, False, 2),
    "2d_fp16_input_only": ([2, 16, 9, 7], 24, [3, 3], [1, 1], [1, 1], 1, "fp16", False, True, (1, 0, 0), False,
                           False, 2),
    "2d_grouped_tf32_own_stream": ([2, 32, 10, 12], 32, [3, 3], [2, 2], [1, 1], 4, "tf32", False, True, (1, 1, 1),
                                   True, True, 2),
    "1d_phase_split_fp32": ([2, 40, 37], 24, [16], [8], [4], 1, "fp32", False, False, (1, 1, 0), False, False, 0),
}


@pytest.mark.parametrize("case", list(NATIVE_BACKWARD_CASES))
def test_native_backward_matches_the_python_path(case, monkeypatch):
    """A signature's first backward runs on the Python path and records whether the native call (one C++ `backward`)
    reproduces it: its later backwards then take that call, passes at once where the Python path's rule said so
    (forced either way here), and give the Python path's gradients bit for bit, in the needed ones only, on the
    caller's stream. Where "auto" splits grad_input by phases (a choice made in Python) no call is native."""
    shape, cout, kernel, stride, padding, groups, mode, channels_last, bias, needs, at_once, own_stream, expected = \
        NATIVE_BACKWARD_CASES[case]
    dims = len(kernel)
    conv = {1: tconv.conv_transpose1d, 2: tconv.conv_transpose2d, 3: tconv.conv_transpose3d}[dims]
    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(mode, torch.float32)
    layout = {4: torch.channels_last, 5: torch.channels_last_3d}.get(len(shape), torch.contiguous_format)
    gen = torch.Generator(device="cuda").manual_seed(491 + len(case))
    x = torch.randn(shape, device="cuda", generator=gen).to(dtype)
    w = (torch.randn([shape[1], cout // groups] + kernel, device="cuda", generator=gen) * 0.1).to(dtype)
    b = torch.randn(cout, device="cuda", generator=gen).to(dtype) if bias else None
    if channels_last:
        x = x.contiguous(memory_format=layout)
    leaves = [t for t, need in zip((x, w, b), needs) if need and t is not None]
    for t in leaves:
        t.requires_grad_()
    with torch.no_grad():
        out_shape = conv(x, w, b, stride=stride, padding=padding, groups=groups).shape
    dy = torch.randn(out_shape, device="cuda", generator=gen).to(dtype)
    if channels_last:
        dy = dy.contiguous(memory_format=layout)

    def gradients():
        for t in leaves:
            t.grad = None
        conv(x, w, b, stride=stride, padding=padding, groups=groups).backward(dy)
        return [t.grad.clone() for t in leaves]

    monkeypatch.setattr(tconv._ops, "_native_plans", {})
    monkeypatch.setattr(tconv._ops, "_concurrent_fits", {})
    monkeypatch.setattr(tconv._ops, "_CONCURRENT_BACKWARD", True)
    monkeypatch.setattr(tconv._ops, "_CONCURRENT_PERSISTENT_GRAD_INPUT", at_once)
    monkeypatch.setattr(tconv._ops, "concurrent_backward_fits", lambda *extras: at_once)
    native_calls = []
    native_backward = tconv._ops._native_backward

    def counted_native_backward(*args):
        native_calls.append(args[-1])  # whether the passes run at once
        grads = native_backward(*args)
        assert [g is not None for g in grads] == [bool(needs[0]), bool(needs[1]), bool(needs[2] and bias)]
        return grads
    monkeypatch.setattr(tconv._ops, "_native_backward", counted_native_backward)
    caller = torch.cuda.current_stream()
    own = torch.cuda.Stream() if own_stream else None
    with precision(mode), (torch.cuda.stream(own) if own is not None else contextlib.nullcontext()):
        monkeypatch.setattr(tconv._ops, "_NATIVE_BACKWARD", False)
        reference = gradients()
        assert not tconv._ops._native_plans
        monkeypatch.setattr(tconv._ops, "_NATIVE_BACKWARD", True)
        runs = [gradients() for _ in range(3)]
        assert torch.cuda.current_stream() == (own if own is not None else caller)
    torch.cuda.synchronize()
    assert torch.cuda.current_stream() == caller
    assert native_calls == [bool(at_once and needs[0] and needs[1])] * expected, native_calls
    assert len(reference) == len(leaves) and all(g is not None for g in reference)
    for run in runs:
        for mine, theirs in zip(run, reference):
            assert mine.shape == theirs.shape and mine.stride() == theirs.stride()
            assert torch.equal(mine, theirs)


@pytest.mark.skipif(os.environ.get("TCONV_GATHER_MMA_SYNC_MAX_K") is not None,
                    reason="TCONV_GATHER_MMA_SYNC_MAX_K replaces the rule under test")
def test_shallow_tf32_forward_takes_mma_sync():
    """TF32 forwards whose GEMM K (input channels x the phase's taps, after the W fold) is at most 64 and whose columns
    (output channels x the fold) the wgmma tile does not divide run on the mma.sync gather under "auto"
    (igemm_config.h kGatherMmaSyncMaxK; runs 376-377: fam13 0.806 -> 0.669 ms). Columns it divides, a deeper K and
    bf16 keep the wgmma one. The calls meet the precision contract (run_case)."""
    if not wgmma_kernels_run():
        pytest.skip("the wgmma kernels do not run on this device")

    def gather_tiles_wgmma(cin, cout, kernel, stride, padding, dilation, mode):
        gen = torch.Generator(device="cuda").manual_seed(cin + cout)
        dtype = torch.bfloat16 if mode == "bf16" else torch.float32
        x = torch.randn(2, cin, 8, 16, device="cuda", generator=gen).to(dtype)
        w = torch.randn(cin, cout, kernel, kernel, device="cuda", generator=gen).to(dtype)
        names = auto_gather_kernel_names(
            mode, lambda: tconv.conv_transpose2d(x, w, stride=stride, padding=padding, dilation=dilation))
        return [re.search(r"GatherGemmTile<\d+, \d+, (true|false)", n).group(1) == "true" for n in names]
    fam13_like = (3, 5, 1, 2)  # K = C_in (one tap per phase), 5 x C_out columns
    assert not any(gather_tiles_wgmma(32, 64, *fam13_like, "tf32"))  # 320 columns
    assert not any(gather_tiles_wgmma(64, 64, *fam13_like, "tf32"))
    assert all(gather_tiles_wgmma(128, 64, *fam13_like, "tf32"))  # K 128
    assert all(gather_tiles_wgmma(32, 128, *fam13_like, "tf32"))  # 640 columns: 128-column tiles at this grid
    assert all(gather_tiles_wgmma(32, 64, *fam13_like, "bf16"))
    for cin, seed in ((16, 61), (64, 62)):
        run_case(2, 2, cin, 64, 1, [3, 3], [5, 5], [1, 1], [0, 0], [2, 2], [8, 16], True, mode="tf32",
                 layout="contiguous", seed=seed, algorithm="auto")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", [GRID[16], GRID[13], GRID[26], GRID[4], GROUPED_GRID[0]],
                         ids=["hifigan", "g13", "dcgan", "g4", "gg0"])
def test_autotune_results_meet_the_contract(case, mode, poison_allocator):
    """With tconv's autotune on, the first call tunes every pass (each candidate checked against the
    heuristic), the second runs the cached winners; both meet the precision contract."""
    tconv.clear_autotune_cache()
    try:
        with tconv.autotune(), warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)  # a candidate disagreeing with auto is a bug
            for _ in range(2):
                run_case(*case, mode=mode, layout="contiguous", seed=5, poison=poison_allocator)
        tunings = tconv.autotune_cache()
        ops = sorted(key[0] for key in tunings)
        assert ops == ["forward", "grad_input", "grad_weight"], ops
        for key, tuning in tunings.items():
            assert tuning.winner in tuning.times_ms and tuning.winner in tconv._autotune.CANDIDATES[key[0]]
            assert not any("differs" in why for why in tuning.refused.values()), tuning.refused
    finally:
        tconv.clear_autotune_cache()
    assert not tconv.autotune_enabled()


def test_current_stream_is_used():
    x = torch.rand(2, 4, 16, 16, device="cuda")
    w = torch.rand(4, 4, 3, 3, device="cuda")
    side = torch.cuda.Stream()
    with precision("fp32"), torch.cuda.stream(side):
        out = tconv.conv_transpose2d(x, w)
        assert torch.cuda.current_stream() == side
    side.synchronize()
    torch.testing.assert_close(out, F.conv_transpose2d(x.double(), w.double()).float(), atol=1e-4, rtol=1e-4)


def test_global_flags_untouched():
    before = (torch.backends.cudnn.benchmark, torch.backends.cudnn.allow_tf32, torch.get_float32_matmul_precision())
    x = torch.rand(2, 4, 5, 5, device="cuda", requires_grad=True)
    w = torch.rand(4, 4, 3, 3, device="cuda", requires_grad=True)
    tconv.conv_transpose2d(x, w).sum().backward()
    assert (torch.backends.cudnn.benchmark, torch.backends.cudnn.allow_tf32, torch.get_float32_matmul_precision()) == before


def test_module_on_gpu_matches_torch_module():
    torch.manual_seed(0)
    ref = torch.nn.ConvTranspose3d(4, 6, (3, 2, 3), stride=(2, 1, 2), padding=1, groups=2).cuda().double()
    mod = tconv.ConvTranspose3d.from_torch(ref)
    x = torch.rand(2, 4, 4, 5, 6, device="cuda", dtype=torch.float64)
    torch.testing.assert_close(mod(x, output_size=[8, 4, 12]), ref(x, output_size=[8, 4, 12]))
    torch.testing.assert_close(mod(x), ref(x))


@pytest.mark.slow
def test_int64_indexing_large_tensor():
    """An output past 2^31 elements takes the 64-bit index path; checked against torch on a slice
    near the end (a transposed convolution is local, so the tail of the output depends only on the
    tail of the input)."""
    length = (1 << 30) + 5
    free, _ = torch.cuda.mem_get_info()
    if free < 16 << 30:
        pytest.skip("needs 16 GiB of free GPU memory")
    x = torch.rand(1, 1, length, device="cuda", dtype=torch.bfloat16)
    w = torch.rand(1, 2, 3, device="cuda", dtype=torch.bfloat16)
    out = tconv.conv_transpose1d(x, w, stride=1)
    assert out.numel() > (1 << 31)
    tail = 64
    ref = F.conv_transpose1d(x[..., -tail:].double(), w.double())
    torch.testing.assert_close(out[..., -tail:].double(), ref[..., -tail:], atol=2e-2, rtol=1e-2)
    head = F.conv_transpose1d(x[..., :tail].double(), w.double())
    torch.testing.assert_close(out[..., :tail].double(), head[..., :tail], atol=2e-2, rtol=1e-2)


# ---- grad_bias (per-channel sum of grad_output): every layout the row, strided and channels walks
# take, misaligned and odd extents, the two-pass split sum, against a float64 sum ----
GRAD_BIAS_DTYPES = [torch.float32, torch.float16, torch.bfloat16, torch.float64]


def _offset_by_one(shape, dtype, gen, channels_last=False):
    """A tensor whose data pointer is one element past a 16-byte boundary (storage offset 1)."""
    numel = 1
    for s in shape:
        numel *= s
    flat = torch.randn(numel + 1, generator=gen, device="cuda").to(dtype)[1:]
    if not channels_last:
        return flat.view(shape)
    n, c, *spatial = shape
    dims = len(spatial)
    return flat.view(n, *spatial, c).permute(0, dims + 1, *range(1, dims + 1))


def _grad_bias_case(name, dtype, gen):
    randn = lambda *shape: torch.randn(*shape, generator=gen, device="cuda").to(dtype)
    cases = {
        # contiguous NC(D)HW: the 16-byte row walk (rows >= 2048), rows of 2310 elements (row starts
        # not 16-byte aligned), and short rows (strided walk)
        "contiguous_1d": lambda: randn(3, 5, 5000),
        "contiguous_2d_odd_rows": lambda: randn(3, 6, 33, 70),
        "contiguous_3d_short_rows": lambda: randn(2, 5, 3, 4, 7),
        "contiguous_many_rows": lambda: randn(9, 7, 48, 48),
        # channels_last(_3d): 16-byte channel packs (C a multiple of 8), scalar channels (C = 3, 12)
        "channels_last_2d": lambda: randn(3, 16, 9, 13).contiguous(memory_format=torch.channels_last),
        "channels_last_2d_c3": lambda: randn(2, 3, 17, 19).contiguous(memory_format=torch.channels_last),
        "channels_last_3d": lambda: randn(2, 12, 3, 5, 7).contiguous(memory_format=torch.channels_last_3d),
        # non-contiguous views: every other channel and column, a cropped window, a transposed H/W
        "slice": lambda: randn(3, 10, 12, 2 * 41)[:, ::2, 1:, ::2],
        "crop": lambda: randn(2, 4, 40, 3000)[:, :, 3:37, 5:2990],
        "transposed_hw": lambda: randn(2, 6, 21, 33).transpose(2, 3),
        "channels_last_slice": lambda: randn(2, 24, 9, 11).contiguous(memory_format=torch.channels_last)[:, 1:21:2],
        # expanded (stride 0) along batch/space, and along channels
        "expanded_space": lambda: randn(1, 7, 1, 1).expand(4, 7, 33, 65),
        "expanded_channels": lambda: randn(3, 1, 9, 2100).expand(3, 5, 9, 2100),
        # misaligned base pointer (storage offset 1) with odd extents, row walk and channels walk
        "misaligned_rows": lambda: _offset_by_one((2, 3, 2049), dtype, gen),
        "misaligned_channels_last": lambda: _offset_by_one((2, 8, 5, 7), dtype, gen, channels_last=True),
        # many splits per channel: the partials are themselves reduced by the channels walk first
        "two_pass_one_channel": lambda: randn(8, 1, 1 << 17),
        "two_pass_channels_last": lambda: randn(4, 64, 96, 96).contiguous(memory_format=torch.channels_last),
        # nothing to reduce: zeros; a single position per channel
        "batch0": lambda: randn(0, 5, 7, 3),
        "zero_spatial": lambda: randn(2, 5, 0),
        "single_position": lambda: randn(1, 9, 1, 1).contiguous(memory_format=torch.channels_last),
    }
    return cases[name]()


GRAD_BIAS_CASES = ["contiguous_1d", "contiguous_2d_odd_rows", "contiguous_3d_short_rows", "contiguous_many_rows",
                   "channels_last_2d", "channels_last_2d_c3", "channels_last_3d", "slice", "crop", "transposed_hw",
                   "channels_last_slice", "expanded_space", "expanded_channels", "misaligned_rows",
                   "misaligned_channels_last", "two_pass_one_channel", "two_pass_channels_last", "batch0",
                   "zero_spatial", "single_position"]


def _check_grad_bias(got, g):
    """fp32 accumulation (fp64 for double) of exactly representable inputs: the error is the fp32
    rounding of a sum (bounded by a small multiple of eps times the sum of |g|) plus one rounding of
    the result to the dtype."""
    dims = [0] + list(range(2, g.dim()))
    ref = g.double().sum(dim=dims)
    scale = g.double().abs().sum(dim=dims)
    assert got.shape == ref.shape and got.dtype == g.dtype, (got.shape, got.dtype)
    assert torch.isfinite(got).all(), "non-finite grad_bias"
    accumulate = 1e-12 if g.dtype == torch.float64 else 1e-5
    result_eps = {torch.float32: 0.0, torch.float64: 0.0, torch.float16: 2.0 ** -11, torch.bfloat16: 2.0 ** -8}[g.dtype]
    err = (got.double() - ref).abs()
    bound = accumulate * scale + result_eps * ref.abs() + 1e-30
    assert (err <= bound).all(), f"max error {err.max().item():.3g}, bound there {bound[err.argmax()].item():.3g}"


@pytest.mark.parametrize("dtype", GRAD_BIAS_DTYPES, ids=["fp32", "fp16", "bf16", "fp64"])
@pytest.mark.parametrize("case", GRAD_BIAS_CASES)
def test_grad_bias_layouts(case, dtype, poison_allocator):
    gen = torch.Generator(device="cuda").manual_seed(zlib.crc32(case.encode()) % 10000)
    g = _grad_bias_case(case, dtype, gen)
    poison_allocator()
    got = tconv._ops.conv_transpose_grad_bias(g)
    _check_grad_bias(got, g)
    if g.numel() == 0:
        assert (got == 0).all()


@pytest.mark.parametrize("dtype", GRAD_BIAS_DTYPES, ids=["fp32", "fp16", "bf16", "fp64"])
@pytest.mark.parametrize("case", ["contiguous_many_rows", "channels_last_2d", "slice", "misaligned_rows",
                                  "two_pass_one_channel", "two_pass_channels_last"])
def test_grad_bias_deterministic(case, dtype):
    gen = torch.Generator(device="cuda").manual_seed(11)
    g = _grad_bias_case(case, dtype, gen)
    first = tconv._ops.conv_transpose_grad_bias(g)
    for _ in range(3):
        assert torch.equal(tconv._ops.conv_transpose_grad_bias(g), first), "grad_bias changed between calls"


@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
def test_grad_bias_through_autograd(layout):
    """The bias gradient of a module's backward, with grad_output in the layout torch hands it."""
    gen = torch.Generator(device="cuda").manual_seed(5)
    x = torch.randn(2, 8, 20, 24, generator=gen, device="cuda")
    if layout == "channels_last":
        x = x.contiguous(memory_format=torch.channels_last)
    w = torch.randn(8, 12, 4, 4, generator=gen, device="cuda")
    b = torch.randn(12, generator=gen, device="cuda", requires_grad=True)
    out = tconv.conv_transpose2d(x, w, b, stride=2, padding=1)
    grad = torch.randn(out.shape, generator=gen, device="cuda")
    if layout == "channels_last":
        grad = grad.contiguous(memory_format=torch.channels_last)
    (got,) = torch.autograd.grad(out, [b], grad)
    _check_grad_bias(got, grad)


# The unit-stride mma.sync kernel for few channels (conv_transpose_unit_stride_mma.cu, UnitStrideMmaTile; compute
# capability 8.0+), forced by "unit_stride_mma" for the forward and grad_input (and fp16/bf16 grad_weight), every
# gradient checked. L1-71's k3 over rows of 64-position tiles with a partial last tile; fam11's k3x7 with padding 1x3;
# 64 channels (two channel stages; grad_input's C_in side too) on rows padded to 16 bytes with W_in not a multiple of
# a piece (partial last pieces); H/W dilation with output_padding; padding past dilation x (kernel - 1) (grad_input's
# padding negative); 1D with 96 output channels (three C_out tiles; grad_input's three stages); 3D with kernel D 1
# (planes); W_out 2 (one partial tile); a batch of 0. (Run 282: a k2x5 case with 96 output channels could not run
# grad_input in fp32: its weights, 123 KB, and the window did not fit.) Folded tiles (the warps side by side along x,
# unit_stride_mma_folds): the 1D cases (one with dilation 3 over three tiles of 512 positions, bf16, or five of 256,
# fp32, the last partial) and a 2D call with two output rows and a k3 window over them.
UNIT_STRIDE_MMA_GRID = [
    # dims, batch, cin, cout, kernel, padding, output_padding, dilation, spatial, bias, layout
    (2, 2, 32, 32, [3, 3], [0, 0], [0, 0], [1, 1], [19, 126], True, "contiguous"),
    (2, 1, 32, 32, [3, 7], [1, 3], [0, 0], [1, 1], [9, 130], False, "contiguous"),
    (2, 2, 64, 64, [3, 3], [1, 1], [0, 0], [1, 1], [10, 34], True, "row_padded"),
    (2, 1, 32, 64, [2, 5], [0, 2], [1, 0], [2, 2], [7, 40], True, "contiguous"),
    (2, 2, 32, 32, [3, 3], [3, 1], [0, 0], [1, 1], [12, 80], False, "contiguous"),
    (1, 3, 32, 96, [5], [2], [0], [1], [300], True, "contiguous"),
    (3, 2, 32, 32, [1, 3, 3], [0, 1, 1], [0, 0, 0], [1, 1, 1], [3, 10, 20], True, "contiguous"),
    (2, 1, 32, 32, [1, 1], [0, 0], [0, 0], [1, 1], [5, 2], True, "contiguous"),
    (2, 0, 32, 32, [3, 3], [0, 0], [0, 0], [1, 1], [8, 8], True, "contiguous"),
    (1, 2, 32, 64, [5], [0], [0], [3], [1100], False, "contiguous"),
    (2, 2, 32, 32, [3, 3], [1, 1], [0, 0], [1, 1], [2, 500], True, "contiguous"),
]


@pytest.mark.parametrize("mode", ["tf32", "fp16", "bf16"])
@pytest.mark.parametrize("case", UNIT_STRIDE_MMA_GRID, ids=[f"m{i}" for i in range(len(UNIT_STRIDE_MMA_GRID))])
def test_unit_stride_mma(case, mode, poison_allocator):
    if torch.cuda.get_device_capability()[0] < 8:
        pytest.skip("the unit-stride mma.sync kernel needs compute capability 8.0")
    dims, batch, cin, cout, kernel, padding, output_padding, dilation, spatial, bias, layout = case
    run_case(dims, batch, cin, cout, 1, kernel, [1] * dims, padding, output_padding, dilation, spatial, bias,
             mode=mode, layout=layout, seed=zlib.crc32(f"{case}unit_mma{mode}".encode()) % 10000,
             poison=poison_allocator, algorithm="unit_stride_mma")


# fp32 stages 16 input channels (UnitStrideMmaTile<4>::kChannels), so TF32 also takes C_in 16 (one stage) and 48
# (three stages, with grad_input's C_out side 48: two C_out tiles, the second partial).
UNIT_STRIDE_MMA_FP32_GRID = [
    (2, 2, 16, 32, [3, 3], [1, 1], [0, 0], [1, 1], [12, 70], True, "contiguous"),
    (2, 1, 48, 16, [3, 5], [0, 2], [0, 0], [1, 2], [9, 50], True, "row_padded"),
    # A 9-row window: fp32 raw parts of 5 and 4 rows; W_out 100 in two 64-position tiles, the second partial.
    (2, 2, 32, 32, [2, 3], [0, 1], [0, 0], [1, 1], [11, 100], True, "contiguous"),
]


@pytest.mark.parametrize("case", UNIT_STRIDE_MMA_FP32_GRID,
                         ids=[f"f{i}" for i in range(len(UNIT_STRIDE_MMA_FP32_GRID))])
def test_unit_stride_mma_tf32_stages(case, poison_allocator):
    if torch.cuda.get_device_capability()[0] < 8:
        pytest.skip("the unit-stride mma.sync kernel needs compute capability 8.0")
    dims, batch, cin, cout, kernel, padding, output_padding, dilation, spatial, bias, layout = case
    run_case(dims, batch, cin, cout, 1, kernel, [1] * dims, padding, output_padding, dilation, spatial, bias,
             mode="tf32", layout=layout, seed=zlib.crc32(f"{case}unit_mma_tf32".encode()) % 10000,
             poison=poison_allocator, algorithm="unit_stride_mma")


# The kernel's channels-last form (16-bit: each input position's 32 channels copied whole into the MMAs' layout, the
# outputs stored along the channels), forced by "unit_stride_mma", with grad_output contiguous (grad_input on the
# W-contiguous form) and channels-last (grad_input channels-last too), every gradient checked: the grid's row-tile
# cases (L1-71's k3 over a partial last tile; k3x7 with padding 1x3; two channel stages at 64 -> 64; dilation with
# output_padding; padding past dilation x (kernel - 1); W_out 2; a batch of 0), 3D with kernel D 1
# (channels_last_3d planes) and a folded 2D call (two rows of 500).
UNIT_STRIDE_MMA_CL_GRID = [
    # dims, batch, cin, cout, kernel, padding, output_padding, dilation, spatial, bias
    (2, 2, 32, 32, [3, 3], [0, 0], [0, 0], [1, 1], [19, 126], True),
    (2, 1, 32, 32, [3, 7], [1, 3], [0, 0], [1, 1], [9, 130], False),
    (2, 2, 64, 64, [3, 3], [1, 1], [0, 0], [1, 1], [10, 34], True),
    (2, 1, 32, 64, [2, 5], [0, 2], [1, 0], [2, 2], [7, 40], True),
    (2, 2, 32, 32, [3, 3], [3, 1], [0, 0], [1, 1], [12, 80], False),
    (3, 2, 32, 32, [1, 3, 3], [0, 1, 1], [0, 0, 0], [1, 1, 1], [3, 10, 20], True),
    (2, 1, 32, 32, [1, 1], [0, 0], [0, 0], [1, 1], [5, 2], True),
    (2, 0, 32, 32, [3, 3], [0, 0], [0, 0], [1, 1], [8, 8], True),
    (2, 2, 32, 32, [3, 3], [1, 1], [0, 0], [1, 1], [2, 500], True),
]


@pytest.mark.parametrize("grads", ["contiguous", "channels_last"])
@pytest.mark.parametrize("mode", ["fp16", "bf16"])
@pytest.mark.parametrize("case", UNIT_STRIDE_MMA_CL_GRID,
                         ids=[f"c{i}" for i in range(len(UNIT_STRIDE_MMA_CL_GRID))])
def test_unit_stride_mma_channels_last(case, mode, grads, poison_allocator):
    if torch.cuda.get_device_capability()[0] < 8:
        pytest.skip("the unit-stride mma.sync kernel needs compute capability 8.0")
    dims, batch, cin, cout, kernel, padding, output_padding, dilation, spatial, bias = case
    run_case(dims, batch, cin, cout, 1, kernel, [1] * dims, padding, output_padding, dilation, spatial, bias,
             mode=mode, layout="channels_last", seed=zlib.crc32(f"{case}unit_mma_cl{mode}{grads}".encode()) % 10000,
             poison=poison_allocator, algorithm="unit_stride_mma", grad_like_output=grads == "channels_last")


@pytest.mark.parametrize("mode", ["fp16", "bf16"])
@pytest.mark.parametrize("cout", [40, 20, 72])
def test_unit_stride_mma_channels_last_stores(cout, mode, poison_allocator):
    """The channels-last form's stores, forward only (grad_input would have C_in = cout, off 32): C_out 40 (a last
    C_out tile of 8 channels, one 16-byte chunk a position), 20 (output strides off 8 elements: element stores, 20
    channels of the tile's 32) and 72 (three tiles, the last of 8), with bias, against float64 and torch in the same
    precision, the output's memory poisoned; every launch is the channels-last instantiation."""
    if torch.cuda.get_device_capability()[0] < 8:
        pytest.skip("the unit-stride mma.sync kernel needs compute capability 8.0")
    gen = torch.Generator(device="cuda").manual_seed(zlib.crc32(f"cl_stores{cout}{mode}".encode()) % 10000)
    dtype = dtype_of(mode)
    x = torch.randn(2, 32, 11, 75, device="cuda", generator=gen).to(dtype).contiguous(
        memory_format=torch.channels_last)
    w = torch.randn(32, cout, 3, 3, device="cuda", generator=gen).to(dtype)
    b = torch.randn(cout, device="cuda", generator=gen).to(dtype)
    with precision(mode):
        poison_allocator()
        with tconv._ops.use_algorithm("unit_stride_mma"), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = tconv.conv_transpose2d(x, w, b, padding=1)
            torch.cuda.synchronize()
        same = torch.nn.functional.conv_transpose2d(x, w, b, padding=1)
    ref64 = torch.nn.functional.conv_transpose2d(x.double(), w.double(), b.double(), padding=1)
    assert out.is_contiguous(memory_format=torch.channels_last)
    check_close("output", out, ref64, same, mode)
    launches = [e.name for e in prof.events() if "unit_stride_mma_kernel" in e.name]
    assert launches and all("true>" in n for n in launches), launches


UNIT_STRIDE_MMA_CL_FP32 = os.environ.get("TCONV_UNIT_STRIDE_MMA_CHANNELS_LAST_FP32", "1") == "1"


def test_unit_stride_mma_channels_last_tf32_where_switched(tmp_path):
    """Under the default (TCONV_UNIT_STRIDE_MMA_CHANNELS_LAST_FP32 unset, a fresh process) the kernel's
    channels-last form runs fp32 (TF32): every UNIT_STRIDE_MMA_CL_GRID case under "unit_stride_mma", with grad_output
    contiguous and channels-last, meets the precision contract (run_case: float64 and torch in TF32, outputs and
    every gradient, poisoned outputs); the stores' cases forward only (C_out 40: a last tile of 8 channels, two
    16-byte chunks a position; 22: strides off 4 floats, element stores and a partial chunk; 72: three tiles), every
    launch the channels-last instantiation; "auto" takes it for the forward and grad_input of an L1-71-like call (2
    launches); and that call's forward and grad_input equal the contiguous form's bit for bit. Under 0 "auto" leaves
    that call's passes to other kernels (0 launches) and "unit_stride_mma" refuses a channels-last TF32 call."""
    if torch.cuda.get_device_capability()[0] < 8:
        pytest.skip("the unit-stride mma.sync kernel needs compute capability 8.0")
    code = (
        "import os, sys, zlib, torch, tconv\n"
        "import test_conv_transpose_gpu as t\n"
        "from conftest import poison_cuda_allocator\n"
        "switched_on = os.environ['TCONV_UNIT_STRIDE_MMA_CHANNELS_LAST_FP32'] != '0'\n"
        "xa = torch.randn(2, 32, 16, 128, device='cuda').contiguous(memory_format=torch.channels_last)\n"
        "xa.requires_grad_()\n"
        "wa = torch.randn(32, 32, 3, 3, device='cuda', requires_grad=True)\n"
        "with t.precision('tf32'), tconv._ops.use_algorithm('auto'), \\\n"
        "        torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:\n"
        "    out = tconv.conv_transpose2d(xa, wa)\n"
        "    out.backward(torch.randn_like(out))\n"
        "    torch.cuda.synchronize()\n"
        "auto_launches = sum('unit_stride_mma_kernel' in e.name for e in prof.events())\n"
        "if not switched_on:\n"
        "    try:\n"
        "        with t.precision('tf32'), tconv._ops.use_algorithm('unit_stride_mma'):\n"
        "            tconv.conv_transpose2d(xa, wa)\n"
        "        refused = False\n"
        "    except RuntimeError as error:\n"
        "        refused = 'unit_stride_mma' in str(error)\n"
        "    torch.save((auto_launches, refused), sys.argv[1])\n"
        "    sys.exit(0)\n"
        "for case in t.UNIT_STRIDE_MMA_CL_GRID:\n"
        "    dims, batch, cin, cout, kernel, padding, output_padding, dilation, spatial, bias = case\n"
        "    for grads in ('contiguous', 'channels_last'):\n"
        "        t.run_case(dims, batch, cin, cout, 1, kernel, [1] * dims, padding, output_padding, dilation,\n"
        "                   spatial, bias, mode='tf32', layout='channels_last',\n"
        "                   seed=zlib.crc32(f'{case}unit_mma_cl_tf32{grads}'.encode()) % 10000,\n"
        "                   poison=poison_cuda_allocator, algorithm='unit_stride_mma',\n"
        "                   grad_like_output=grads == 'channels_last')\n"
        "store_launches = []\n"
        "for cout in (40, 22, 72):\n"
        "    gen = torch.Generator(device='cuda').manual_seed(cout)\n"
        "    x = torch.randn(2, 32, 11, 75, device='cuda', generator=gen).contiguous(\n"
        "        memory_format=torch.channels_last)\n"
        "    w = torch.randn(32, cout, 3, 3, device='cuda', generator=gen)\n"
        "    b = torch.randn(cout, device='cuda', generator=gen)\n"
        "    with t.precision('tf32'):\n"
        "        poison_cuda_allocator()\n"
        "        with tconv._ops.use_algorithm('unit_stride_mma'), \\\n"
        "                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:\n"
        "            out = tconv.conv_transpose2d(x, w, b, padding=1)\n"
        "            torch.cuda.synchronize()\n"
        "        same = torch.nn.functional.conv_transpose2d(x, w, b, padding=1)\n"
        "    ref64 = torch.nn.functional.conv_transpose2d(x.double(), w.double(), b.double(), padding=1)\n"
        "    assert out.is_contiguous(memory_format=torch.channels_last), cout\n"
        "    t.check_close('output', out, ref64, same, 'tf32')\n"
        "    store_launches.append([e.name for e in prof.events() if 'unit_stride_mma_kernel' in e.name])\n"
        "same_sums = []\n"
        "g = torch.randn(xa.shape, device='cuda', generator=torch.Generator(device='cuda').manual_seed(3))\n"
        "for fmt in (torch.channels_last, torch.contiguous_format):\n"
        "    xl = xa.detach().contiguous(memory_format=fmt).requires_grad_()\n"
        "    with t.precision('tf32'), tconv._ops.use_algorithm('unit_stride_mma'):\n"
        "        out = tconv.conv_transpose2d(xl, wa.detach(), padding=1)\n"
        "        grad_x, = torch.autograd.grad(out, [xl], g.contiguous(memory_format=fmt))\n"
        "    same_sums.append([out.contiguous().cpu(), grad_x.contiguous().cpu()])\n"
        "torch.save((store_launches, auto_launches, same_sums), sys.argv[1])\n")
    saved = run_under_switch(code, tmp_path, "TCONV_UNIT_STRIDE_MMA_CHANNELS_LAST_FP32", values=("", "0"),
                             timeout=600)
    assert saved["0"] == (0, True), saved["0"]
    store_launches, auto_launches, same_sums = saved[""]
    for cout, launches in zip((40, 22, 72), store_launches):
        assert launches and all("true>" in n for n in launches), (cout, launches)
    assert auto_launches == 2
    # The same MMAs in the same order on the same TF32-rounded values: channels-last equals contiguous bit for bit
    # (forward and grad_input).
    assert_bitwise_equal(same_sums[0], same_sums[1], "channels_last against contiguous")


def test_unit_stride_mma_dynamic_tiles_match_static(tmp_path):
    """TCONV_UNIT_STRIDE_MMA_DYNAMIC_TILES is a per-process switch, so one subprocess each way. With 1 (the default)
    blocks take their later tiles from a counter, with 0 as static shares. Every tile is computed as before, so the
    forward and grad_input are bitwise the static ones, in TF32 and bf16. The shapes have more tiles than resident
    blocks (the forward 1024 tiles of 8 x 64 positions over two C_out tiles, grad_input 512; an H200 holds at most 264
    blocks), so the counter is used."""
    if torch.cuda.get_device_capability()[0] < 8:
        pytest.skip("the unit-stride mma.sync kernel needs compute capability 8.0")
    code = (
        "import sys, torch, tconv\n"
        "from tconv.harness.precision import precision_mode\n"
        "results = {}\n"
        "for mode, dtype in (('tf32', torch.float32), ('bf16', torch.bfloat16)):\n"
        "    gen = torch.Generator(device='cuda').manual_seed(7)\n"
        "    x = torch.randn(4, 32, 62, 1022, device='cuda', generator=gen).to(dtype).requires_grad_()\n"
        "    w = torch.randn(32, 64, 3, 3, device='cuda', generator=gen).to(dtype)\n"
        "    with precision_mode(mode), tconv._ops.use_algorithm('unit_stride_mma'):\n"
        "        out = tconv.conv_transpose2d(x, w)\n"
        "        grad = torch.randn(out.shape, device='cuda', generator=gen).to(dtype)\n"
        "        grad_x, = torch.autograd.grad(out, [x], grad)\n"
        "    results[mode] = [out.cpu(), grad_x.cpu()]\n"
        "torch.save(results, sys.argv[1])\n")
    saved = run_under_switch(code, tmp_path, "TCONV_UNIT_STRIDE_MMA_DYNAMIC_TILES", values=("0", "1"), timeout=300)
    for mode in ("tf32", "bf16"):
        assert all(t.abs().sum() > 0 for t in saved["0"][mode]), mode
        assert_bitwise_equal(saved["1"][mode], saved["0"][mode], mode)


def test_unit_stride_mma_runs_and_refuses():
    """Under "unit_stride_mma" a forward+backward launches the kernel twice (the forward and grad_input; 4-byte pieces
    for grad_output rows of 1026 bf16 values, 16-byte ones for the input's 1024); channels_last, a C_in off 16
    (TF32) or 32 (bf16), a W stride, exact fp32 and a 16-bit input at an odd element offset are refused with an error
    naming the algorithm; so is a bf16 channels_last input one element off its alignment."""
    if torch.cuda.get_device_capability()[0] < 8:
        pytest.skip("the unit-stride mma.sync kernel needs compute capability 8.0")
    gen = torch.Generator(device="cuda").manual_seed(43)
    x = torch.randn(1, 32, 4, 1024, device="cuda", generator=gen).bfloat16().requires_grad_()
    w = torch.randn(32, 32, 3, 3, device="cuda", generator=gen).bfloat16().requires_grad_()
    with tconv._ops.use_algorithm("unit_stride_mma"), \
            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = tconv.conv_transpose2d(x, w)
        out.backward(torch.randn_like(out))
        torch.cuda.synchronize()
    launches = [e.name for e in prof.events() if "unit_stride_mma_kernel" in e.name]
    assert len(launches) == 2, launches
    # (the kernel's template arguments: scalar type, piece bytes, channels-last)
    pieces = {m.group(1) for n in launches for m in [re.search(r", (\d+), false>", n)] if m}
    assert pieces == {"16", "4"}, launches

    def refused(mode, x, w, **kwargs):
        with precision(mode), tconv._ops.use_algorithm("unit_stride_mma"), \
                pytest.raises(RuntimeError, match="unit_stride_mma"):
            tconv.conv_transpose2d(x, w, **kwargs)
    xf, wf = torch.randn(2, 32, 6, 40, device="cuda"), torch.randn(32, 32, 3, 3, device="cuda")
    if not UNIT_STRIDE_MMA_CL_FP32:  # (the default runs it; TCONV_UNIT_STRIDE_MMA_CHANNELS_LAST_FP32=0 refuses it)
        refused("tf32", xf.contiguous(memory_format=torch.channels_last), wf)
    refused("tf32", torch.randn(2, 40, 6, 40, device="cuda"), torch.randn(40, 32, 3, 3, device="cuda"))
    refused("bf16", torch.randn(2, 48, 6, 40, device="cuda").bfloat16(),
            torch.randn(48, 32, 3, 3, device="cuda").bfloat16())
    refused("tf32", xf, wf, stride=(1, 2))
    refused("fp32", xf, wf)
    refused("bf16", torch.randn(2 * 32 * 6 * 40 + 1, device="cuda").bfloat16()[1:].view(2, 32, 6, 40),
            wf.bfloat16())
    # channels-last 16-bit one element off its alignment (its positions' channel runs not on 16 bytes)
    refused("bf16", torch.randn(2 * 32 * 6 * 40 + 1, device="cuda").bfloat16()[1:].view(2, 6, 40, 32)
            .permute(0, 3, 1, 2), wf.bfloat16())


def test_unit_stride_mma_where_planned():
    """Under "auto" (UnitStrideMmaAutoRule, runs 282, 286, 288, 311 and 313) the unit-stride mma.sync kernel runs
    the forward and grad_input of a 2D k3 call with 32 channels on each side in bf16 and fp16 (L1-71's shape,
    smaller) and in TF32 (at most 21 taps, k3 x 7, as in bf16; k3 x 8 stays off it in TF32), not in exact fp32, not
    with 64 channels on either side; on a channels_last input in bf16 and in TF32 (the channels-last form; TF32 not
    under TCONV_UNIT_STRIDE_MMA_CHANNELS_LAST_FP32=0, run 563); on folded tiles (1D) it runs both passes of a
    call with 32 -> 64 channels (fam08's, smaller) in bf16 and in TF32 (run 311), not at 64 -> 64 nor in exact
    fp32."""
    if torch.cuda.get_device_capability()[0] < 8:
        pytest.skip("the unit-stride mma.sync kernel needs compute capability 8.0")

    def launches(cin, cout, mode, channels_last=False, dims=2, kernel_w=3):
        # 2D: 16 x 128 positions, k3 x kernel_w; 1D: 3000 positions, k5 with dilation 3
        x = torch.randn(2, cin, *((16, 128) if dims == 2 else (3000,)), device="cuda", dtype=dtype_of(mode))
        if channels_last:
            x = x.contiguous(memory_format=torch.channels_last)
        x.requires_grad_()
        w = torch.randn(cin, cout, *((3, kernel_w) if dims == 2 else (5,)), device="cuda", dtype=dtype_of(mode),
                        requires_grad=True)
        with precision(mode), tconv._ops.use_algorithm("auto"), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = tconv.conv_transpose2d(x, w) if dims == 2 else tconv.conv_transpose1d(x, w, dilation=3)
            out.backward(torch.randn_like(out))
            torch.cuda.synchronize()
        return sum("unit_stride_mma_kernel" in e.name for e in prof.events())
    assert launches(32, 32, "bf16") == 2
    assert launches(32, 32, "fp16") == 2
    assert launches(32, 32, "tf32") == 2  # 9 taps (run 288: L1-71 TF32 won)
    assert launches(32, 32, "tf32", kernel_w=7) == 2  # 21 taps (run 313: fam11 TF32 won)
    assert launches(32, 32, "tf32", kernel_w=8) == 0  # 24 taps: unmeasured
    assert launches(32, 32, "bf16", kernel_w=7) == 2
    assert launches(32, 32, "fp32") == 0
    assert launches(64, 32, "bf16") == 0  # the forward's C_in 64; grad_input's C_out 64
    assert launches(32, 64, "bf16") == 0
    assert launches(32, 32, "bf16", channels_last=True) == 2
    assert launches(32, 32, "tf32", channels_last=True) == (2 if UNIT_STRIDE_MMA_CL_FP32 else 0)
    assert launches(32, 64, "bf16", dims=1) == 2
    assert launches(64, 32, "fp16", dims=1) == 2
    assert launches(64, 64, "bf16", dims=1) == 0
    assert launches(32, 64, "tf32", dims=1) == 2  # run 311: fam08 TF32 won folded
    assert launches(64, 64, "tf32", dims=1) == 0
    assert launches(32, 64, "fp32", dims=1) == 0


# The unit-stride grad_weight on mma.sync (UnitStrideMmaGradWeightTile, 16-bit data), forced by "unit_stride_mma":
# grad_output rows of 132 (4-byte pieces) against x rows of 130; rows of 128 (16-byte pieces on both sides) with
# padding 1; two C_in stages and two C_out tiles (40: a partial one) with k3x7 over a padded-row input; folded tiles
# (1D, dilation 3, three tiles of 512); 3D with kernel D 1 (planes) and 16 output channels; 25 taps (7 in the first
# tap group, the most a warp holds) with W dilation 2; a batch of 0 (zeros).
UNIT_STRIDE_MMA_GRAD_WEIGHT_CASES = [
    # input shape, weight shape, padding, dilation, input layout
    ((2, 32, 20, 130), (32, 32, 3, 3), (0, 0), (1, 1), "contiguous"),
    ((1, 32, 17, 128), (32, 32, 3, 3), (1, 1), (1, 1), "contiguous"),
    ((2, 64, 9, 70), (64, 40, 3, 7), (1, 3), (1, 1), "row_padded"),
    ((2, 32, 1100), (32, 64, 5), (0,), (3,), "contiguous"),
    ((2, 32, 3, 10, 20), (32, 16, 1, 3, 3), (0, 1, 1), (1, 1, 1), "contiguous"),
    ((1, 32, 12, 40), (32, 32, 5, 5), (2, 2), (1, 2), "contiguous"),
    ((0, 32, 8, 8), (32, 32, 3, 3), (0, 0), (1, 1), "contiguous"),
    ((2, 32, 10, 50), (32, 33, 3, 3), (1, 1), (1, 1), "contiguous"),  # odd C_out: the partials' single stores
]


@pytest.mark.parametrize("mode", ["fp16", "bf16"])
@pytest.mark.parametrize("case", UNIT_STRIDE_MMA_GRAD_WEIGHT_CASES,
                         ids=[f"w{i}" for i in range(len(UNIT_STRIDE_MMA_GRAD_WEIGHT_CASES))])
def test_unit_stride_mma_grad_weight(case, mode):
    """The kernel runs (profiler), is bit-identical between calls, and matches float64 within twice torch's own error
    in the same dtype (check_close)."""
    if torch.cuda.get_device_capability()[0] < 8:
        pytest.skip("the unit-stride mma.sync kernels need compute capability 8.0")
    x_shape, w_shape, padding, dilation, layout = case
    dims, dtype = len(w_shape) - 2, dtype_of(mode)
    gen = torch.Generator(device="cuda").manual_seed(zlib.crc32(f"{case}{mode}".encode()) % 10000)
    x = make_tensor(x_shape, dtype, layout, gen)
    w = torch.randn(w_shape, generator=gen, device="cuda").to(dtype)
    ours_fn = {1: tconv.conv_transpose1d, 2: tconv.conv_transpose2d, 3: tconv.conv_transpose3d}[dims]
    torch_fn = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[dims]

    def grad_weight(fn, x, w, grad=None):
        w = w.detach().requires_grad_()
        out = fn(x, w, None, 1, padding, 0, 1, dilation)
        if grad is None:
            grad = torch.randn(out.shape, generator=gen, device=out.device).to(out.dtype)
        return torch.autograd.grad(out, w, grad)[0], grad

    with tconv._ops.use_algorithm("unit_stride_mma"), \
            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        got, grad = grad_weight(ours_fn, x, w)
        torch.cuda.synchronize()
    assert any(any(k in e.name for k in UNIT_STRIDE_GRAD_WEIGHT_KERNELS) for e in prof.events())
    with tconv._ops.use_algorithm("unit_stride_mma"):
        assert torch.equal(grad_weight(ours_fn, x, w, grad)[0], got), "grad_weight changed between calls"
    if x_shape[0] == 0:
        assert torch.count_nonzero(got) == 0
        return
    ref64, _ = grad_weight(torch_fn, x.double().cpu(), w.double().cpu(), grad.double().cpu())
    torch_same, _ = grad_weight(torch_fn, x, w, grad)
    check_close("grad_weight", got, ref64.cuda(), torch_same, mode)


# The wgmma form of the unit-stride grad_weight (UnitStrideWgmmaGradWeightTile, sm_90a, under
# TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=1): the mma.sync kernel's cases (but 25 taps, which it leaves to that kernel),
# and fam05's k3x7 at 64 -> 64 (21 taps: 7 per warpgroup) with 4-byte pieces on both sides, 16-byte pieces on both
# (rows of 128 with padding 1 x 3), two C_out tiles with 15 taps, three C_in stages with a partial C_out tile and
# dilation 2, one tap on folded rows; 21 taps again with a full and a partial C_out tile (96), and on folded rows
# (out width 256), for the warp-specialized kernel.
UNIT_STRIDE_WGMMA_GRAD_WEIGHT_CASES = UNIT_STRIDE_MMA_GRAD_WEIGHT_CASES + [
    ((2, 64, 20, 70), (64, 64, 3, 7), (0, 0), (1, 1), "contiguous"),
    ((1, 64, 10, 40), (64, 96, 3, 7), (0, 0), (1, 1), "contiguous"),
    ((1, 32, 2, 250), (32, 64, 3, 7), (0, 0), (1, 1), "contiguous"),
    ((2, 64, 12, 128), (64, 64, 3, 7), (1, 3), (1, 1), "contiguous"),
    ((1, 64, 9, 64), (64, 128, 3, 5), (1, 2), (1, 1), "contiguous"),
    ((2, 96, 7, 40), (96, 72, 3, 3), (0, 0), (2, 2), "contiguous"),
    ((2, 32, 3, 258), (32, 32, 1, 1), (0, 0), (1, 1), "contiguous"),
]


def test_unit_stride_wgmma_grad_weight(tmp_path, monkeypatch):
    """Under TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT=1 (the switches are read once per process) the wgmma kernel runs every
    case of at most 21 taps (the mma.sync kernel the others), in fp16 and bf16, and matches float64 within twice
    torch's own error in the same dtype (check_close); each case's grad_output fresh. Under
    TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED, one process each: 0 the kernel that stages with every warp, 1 (the default)
    the warp-specialized kernel; its A fragments from registers, and in a third process
    (TCONV_UNIT_STRIDE_WGMMA_REGISTER_A=0) from shared memory."""
    if not wgmma_kernels_run():
        pytest.skip("the wgmma grad_weight runs on sm_90a builds on compute capability 9.0")
    code = (
        "import sys, torch, tconv\n"
        "import torch.nn.functional as F\n"
        "sys.path.insert(0, '.')\n"
        "from test_conv_transpose_gpu import UNIT_STRIDE_WGMMA_GRAD_WEIGHT_CASES, make_tensor\n"
        "results = []\n"
        "for index, (x_shape, w_shape, padding, dilation, layout) in enumerate(UNIT_STRIDE_WGMMA_GRAD_WEIGHT_CASES):\n"
        "    for dtype in (torch.float16, torch.bfloat16):\n"
        "        gen = torch.Generator(device='cuda').manual_seed(100 * index + int(dtype == torch.bfloat16))\n"
        "        dims = len(w_shape) - 2\n"
        "        fn = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[dims]\n"
        "        ours = {1: tconv.conv_transpose1d, 2: tconv.conv_transpose2d, 3: tconv.conv_transpose3d}[dims]\n"
        "        x = make_tensor(x_shape, dtype, layout, gen)\n"
        "        w = torch.randn(w_shape, generator=gen, device='cuda').to(dtype).requires_grad_()\n"
        "        out_shape = fn(x[:1].float().cpu(), w.detach().float().cpu(), None, 1, padding, 0, 1, dilation).shape\n"
        "        grad = torch.randn((x_shape[0],) + tuple(out_shape[1:]), generator=gen, device='cuda').to(dtype)\n"
        "        with tconv._ops.use_algorithm('unit_stride_mma'), \\\n"
        "                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:\n"
        "            got = torch.autograd.grad(ours(x, w, None, 1, padding, 0, 1, dilation), w, grad)[0]\n"
        "            torch.cuda.synchronize()\n"
        "        names = [e.name for e in prof.events() if 'grad_weight' in e.name]\n"
        "        w64 = w.detach().double().cpu().requires_grad_()\n"
        "        ref64 = torch.autograd.grad(fn(x.double().cpu(), w64, None, 1, padding, 0, 1, dilation), w64,\n"
        "                                    grad.double().cpu())[0]\n"
        "        same = torch.autograd.grad(fn(x, w, None, 1, padding, 0, 1, dilation), w, grad)[0]\n"
        "        results.append((index, str(dtype), got.cpu(), ref64, same.cpu(), names))\n"
        "torch.save(results, sys.argv[1])\n")
    monkeypatch.setenv("TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT", "1")
    runs = run_under_switch(code, tmp_path, "TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED", values=("0", "1"), timeout=600)
    monkeypatch.setenv("TCONV_UNIT_STRIDE_WGMMA_REGISTER_A", "0")
    (tmp_path / "shared_a").mkdir()
    shared_a = run_under_switch(code, tmp_path / "shared_a", "TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED", values=("1",),
                                timeout=600)
    runs["1 shared_a"] = shared_a["1"]
    for specialized, saved in runs.items():
        assert len(saved) == 2 * len(UNIT_STRIDE_WGMMA_GRAD_WEIGHT_CASES)
        for index, dtype, got, ref64, same, names in saved:
            taps = math.prod(UNIT_STRIDE_WGMMA_GRAD_WEIGHT_CASES[index][1][2:])
            kernel = ("unit_stride_wgmma_grad_weight_specialized_kernel" if specialized != "0"
                      else "unit_stride_wgmma_grad_weight_kernel")
            assert any(kernel in n for n in names) == (taps <= 21), (index, dtype, specialized, names)
            if kernel.endswith("specialized_kernel") and taps <= 21:  # its last template argument: kRegisterA
                register_a = [", true>" in n or "Lb1E" in n for n in names if kernel in n]
                assert register_a == [not specialized.endswith("shared_a")] * len(register_a), (index, names)
            assert any(any(k in n for k in UNIT_STRIDE_GRAD_WEIGHT_KERNELS) for n in names), (index, dtype, names)
            if UNIT_STRIDE_WGMMA_GRAD_WEIGHT_CASES[index][0][0] == 0:
                assert torch.count_nonzero(got) == 0
                continue
            check_close(f"grad_weight case {index} {dtype} specialized={specialized}", got.cuda(), ref64.cuda(),
                        same.cuda(), "bf16" if "bfloat16" in dtype else "fp16")


def test_unit_stride_mma_grad_weight_where_planned():
    """Under "auto" (UnitStrideMmaGradWeightAutoRule, runs 298-299) the unit-stride grad_weight runs 2D calls with 32
    or 64 channels on each side and up to 21 taps (k3, k3x7) in bf16 and fp16, not in TF32, not with 128 channels on
    either side (but on Hopper's wgmma form) and not with 24 taps (k3x8); TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT = 0 keeps
    it off. On Hopper its wgmma form takes those with 32 output channels and more than 15 taps, or 64 and up, and
    calls up to 128 channels a side (UnitStrideWgmmaGradWeightAutoRule)."""
    if torch.cuda.get_device_capability()[0] < 8:
        pytest.skip("the unit-stride mma.sync kernels need compute capability 8.0")
    if os.environ.get("TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT", "") == "0":
        pytest.skip("TCONV_UNIT_STRIDE_MMA_GRAD_WEIGHT=0 turns the rule off")

    def launches(cin, cout, mode, kernel_w=3, kernels=UNIT_STRIDE_GRAD_WEIGHT_KERNELS):
        x = torch.randn(2, cin, 16, 128, device="cuda", dtype=dtype_of(mode))
        w = torch.randn(cin, cout, 3, kernel_w, device="cuda", dtype=dtype_of(mode), requires_grad=True)
        with precision(mode), tconv._ops.use_algorithm("auto"), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = tconv.conv_transpose2d(x, w)
            out.backward(torch.randn_like(out))
            torch.cuda.synchronize()
        return sum(any(k in e.name for k in kernels) for e in prof.events())
    assert launches(32, 32, "bf16") == 1
    assert launches(32, 32, "fp16") == 1
    assert launches(32, 32, "tf32") == 0
    assert launches(64, 32, "bf16") == 1
    assert launches(32, 64, "bf16") == 1
    assert launches(64, 64, "bf16") == 1
    assert launches(32, 32, "bf16", kernel_w=7) == 1
    assert launches(128, 32, "bf16") == 0
    assert launches(32, 32, "bf16", kernel_w=8) == 0
    # The wgmma form (UnitStrideWgmmaGradWeightAutoRule, runs 424, 428 and 429), on the warp-specialized kernel: 32
    # output channels and up with 16-21 taps, 64 and up with fewer; beyond the mma.sync kernel's 64 channels it alone
    # takes calls, up to 128 channels a side (run 431).
    wgmma_by_rule = wgmma_kernels_run() and os.environ.get("TCONV_UNIT_STRIDE_WGMMA_GRAD_WEIGHT", "") == ""
    assert launches(32, 128, "bf16") == (1 if wgmma_by_rule else 0)
    assert launches(128, 128, "bf16") == (1 if wgmma_by_rule else 0)
    assert launches(256, 64, "bf16") == 0
    assert launches(32, 128, "tf32") == 0
    if wgmma_by_rule and os.environ.get("TCONV_UNIT_STRIDE_WGMMA_SPECIALIZED", "") == "":
        wgmma = ("unit_stride_wgmma_grad_weight_specialized_kernel",)
        assert launches(128, 128, "bf16", kernel_w=5, kernels=wgmma) == 1
        assert launches(64, 128, "fp16", kernel_w=5, kernels=wgmma) == 1
        assert launches(64, 64, "bf16", kernel_w=7, kernels=wgmma) == 1
        assert launches(32, 64, "fp16", kernel_w=7, kernels=wgmma) == 1
        assert launches(32, 32, "bf16", kernel_w=7, kernels=wgmma) == 1
        assert launches(32, 16, "bf16", kernel_w=7, kernels=wgmma) == 0
        assert launches(64, 64, "bf16", kernels=wgmma) == 1
        assert launches(32, 32, "bf16", kernels=wgmma + ("unit_stride_wgmma_grad_weight_kernel",)) == 0


# fp32 channels-last calls on the cp.async gathers (no W fold: the output is not W-contiguous), for their [M][N]
# epilogue (the default; TCONV_GATHER_FP32_CHANNELS_LAST_EPILOGUE=0 turns it off), each with K above kGatherMmaSyncMaxK
# and 128-column forwards (so TF32 takes the wgmma tiles): real_unet3d_up's k2 s2 in 3D with bias, real_vae_up's in
# 2D, 130 output channels at k3 s2 with output padding (a last tile of 2 columns: one channel a lane), and groups of
# 128 -> 128 (each group's channels from g x 128).
GATHER_FP32_CHANNELS_LAST_CASES = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
    (3, 1, 96, 128, 1, [2, 2, 2], [2, 2, 2], [0, 0, 0], [0, 0, 0], [1, 1, 1], [3, 4, 10], True),
    (2, 2, 128, 128, 1, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], [6, 20], True),
    (2, 1, 96, 130, 1, [3, 3], [2, 2], [1, 1], [1, 1], [1, 1], [5, 14], False),
    (2, 1, 256, 256, 2, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], [5, 12], True),
]


def test_gather_fp32_channels_last_epilogue_where_switched(tmp_path):
    """By default (TCONV_GATHER_FP32_CHANNELS_LAST_EPILOGUE unset; 0 turns it off, in a fresh process) the cp.async
    gathers' fp32 epilogue stages channels-last tiles [M][N] and stores along the channels in their plain wgmma tiles
    (the form's only ones): every case, in TF32 and exact fp32, under igemm_nowindow, meets the precision contract
    with every gradient (run_case, channels_last x and grad_output, poisoned outputs), runs its forward and grad_input
    on the gather kernels (each TF32 case on a wgmma tile), and gives the switched-off form's output and grad_input
    bit for bit (the same staged sums, stored in another order). Exact fp32 runs the mma.sync tiles, where the form
    does not apply: its cases check that the switch leaves them alone."""
    if not wgmma_kernels_run():
        pytest.skip("the form is the wgmma gather tiles': sm_90a builds on compute capability 9.0")
    code = (
        "import os, sys, torch, tconv\n"
        "import test_conv_transpose_gpu as t\n"
        "from conftest import poison_cuda_allocator\n"
        "algorithm = 'igemm_nowindow'\n"
        "contract = os.environ['TCONV_GATHER_FP32_CHANNELS_LAST_EPILOGUE'] != '0'\n"
        "results = []\n"
        "for i, case in enumerate(t.GATHER_FP32_CHANNELS_LAST_CASES):\n"
        "    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias = case\n"
        "    for mode in ('tf32', 'fp32'):\n"
        "        if contract:\n"
        "            t.run_case(*case, mode=mode, layout='channels_last', seed=60 + i, poison=poison_cuda_allocator,\n"
        "                       algorithm=algorithm, grad_like_output=True)\n"
        "        gen = torch.Generator(device='cuda').manual_seed(160 + i)\n"
        "        x = t.make_tensor([batch, cin, *spatial], torch.float32, 'channels_last', gen).requires_grad_()\n"
        "        w = t.make_tensor([cin, cout // groups, *kernel], torch.float32, 'contiguous', gen)\n"
        "        b = torch.randn(cout, generator=gen, device='cuda') if bias else None\n"
        "        with t.precision(mode), tconv._ops.use_algorithm(algorithm), \\\n"
        "                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:\n"
        "            out = t.TCONV_FN[dims](x, w, b, stride, padding, output_padding, groups, dilation)\n"
        "            grad = t.make_tensor(list(out.shape), torch.float32, 'channels_last', gen)\n"
        "            grad_x, = torch.autograd.grad(out, [x], grad)\n"
        "            torch.cuda.synchronize()\n"
        "        names = [e.name for e in prof.events() if 'igemm_gather' in e.name]\n"
        "        results.append((out.detach().contiguous().cpu(), grad_x.contiguous().cpu(), names))\n"
        "torch.save(results, sys.argv[1])\n")
    saved = run_under_switch(code, tmp_path, "TCONV_GATHER_FP32_CHANNELS_LAST_EPILOGUE", values=("", "0"))
    labels = [(case, mode) for case in GATHER_FP32_CHANNELS_LAST_CASES for mode in ("tf32", "fp32")]
    for label, on, off in zip(labels, saved[""], saved["0"]):
        assert len(on[2]) >= 2, (label, on[2])  # the forward's gather and grad_input's
        if label[1] == "tf32":  # a wgmma tile: GatherGemmTile<columns, blocks per SM, wgmma, ...>
            assert any(re.search(r"GatherGemmTile<\d+, ?\d+, ?(true|\(bool\)1)", n) for n in on[2]), (label, on[2])
        assert_bitwise_equal(on[:2], off[:2], str(label))
