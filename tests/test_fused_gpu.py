"""tconv's fused activation -> GroupNorm CUDA kernels (tconv/csrc/group_norm_act.cu) against a
float64 reference: output and the gradients of y, gamma and beta for every activation, groups
1/some/C, affine on/off, eps, fp32/fp16/bf16, contiguous and channels_last, 2D/3D, batch 0; NaN
poisoned outputs, bitwise determinism, current-stream use; and ConvTransposeActGroupNorm3d end to
end against nn.Sequential(ConvTranspose3d, ReLU, GroupNorm). Skipped without CUDA.

Tolerances (DESIGN.md section 3): fp32 allclose(rtol 1e-4, atol 1e-4 x max(1, rms)); fp16/bf16
at most 2x the error of torch's own activation + group_norm in that dtype (both against float64,
as max error over max magnitude) plus a quarter of the dtype's epsilon."""
import os
import random

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import tconv
from conftest import FUSED_ACTIVATION_IDS as ACTIVATION_IDS
from conftest import FUSED_ACTIVATIONS as ACTIVATIONS
from conftest import cuda_ready, unit_stride_flags, wgmma_kernels_run
from tconv import fused

pytestmark = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU")

DTYPES = [torch.float32, torch.float16, torch.bfloat16]
LAYOUTS = ["contiguous", "channels_last"]


@pytest.fixture(autouse=True, scope="module")
def _extension():
    try:
        tconv._build.load()
    except Exception as exc:  # pragma: no cover - depends on the machine
        pytest.skip(f"tconv's CUDA extension is unavailable: {exc}")


def _fused_epilogue_ran(out):
    """The output's grad_fn is tconv's epilogue, alone or with the conv (tconv::conv_transpose_act_group_norm): the
    torch.library op's autograd node (torch >= 2.4) or the autograd.Function of older torch."""
    name = type(out.grad_fn).__name__
    return name.startswith(("_ActGroupNormFunction", "_ConvActGroupNormFunction")) or "act_group_norm" in name


def _layout(t, layout):
    if layout == "contiguous":
        return t.contiguous()
    return t.contiguous(memory_format=torch.channels_last if t.dim() == 4 else torch.channels_last_3d)


def _torch_chain(y, groups, weight, bias, eps, kind, args):
    return F.group_norm(fused._ACTIVATIONS[kind](y, **args), groups, weight, bias, eps)


def _run(fn, y, weight, bias, grad_z):
    """Output and grads (y, weight, bias) of fn(y, weight, bias) for grad_z."""
    # clone() keeps y's memory format, so channels_last inputs stay channels_last.
    leaves = [t.detach().clone().requires_grad_() if t is not None else None for t in (y, weight, bias)]
    out = fn(*leaves)
    wrt = [t for t in leaves if t is not None]
    grads = torch.autograd.grad(out, wrt, grad_z)
    return [out.detach()] + [g.detach() for g in grads]


def _memory_format(t):
    if t.is_contiguous():
        return torch.contiguous_format
    return torch.channels_last if t.dim() == 4 else torch.channels_last_3d


def _error(got, want):
    return ((got.double() - want).abs().max() / want.abs().max().clamp_min(1e-30)).item()


def _assert_matches(ours, ref64, theirs, dtype, what):
    names = ["output", "grad_y", "grad_weight", "grad_bias"]
    for name, got, want, same in zip(names, ours, ref64, theirs):
        assert got.dtype == dtype, f"{what}: {name} has dtype {got.dtype}"
        assert torch.isfinite(got).all() == torch.isfinite(want).all(), f"{what}: {name} has non-finite values"
        if want.numel() == 0:
            continue
        if dtype == torch.float32:
            scale = max(1.0, want.pow(2).mean().sqrt().item())
            torch.testing.assert_close(got.double(), want, atol=1e-4 * scale, rtol=1e-4, msg=lambda m: f"{what}: {name}: {m}")
        else:
            ours_err, torch_err = _error(got, want), _error(same, want)
            slack = 0.25 * torch.finfo(dtype).eps
            assert ours_err <= 2 * torch_err + slack, (
                f"{what}: {name}: error {ours_err:.3g} > 2 x torch's {torch_err:.3g} + {slack:.3g}")


def _case(shape, groups, kind, args, affine, eps, dtype, layout, seed=0, poison=None):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    y64 = torch.randn(shape, generator=gen, device="cuda", dtype=torch.float64) * 2 + 0.5
    w64 = torch.randn(shape[1], generator=gen, device="cuda", dtype=torch.float64) if affine else None
    b64 = torch.randn(shape[1], generator=gen, device="cuda", dtype=torch.float64) if affine else None
    gz64 = torch.randn(shape, generator=gen, device="cuda", dtype=torch.float64)
    cast = lambda t: None if t is None else t.to(dtype)  # noqa: E731
    y, w, b = _layout(cast(y64), layout), cast(w64), cast(b64)
    # The reference sees the dtype's values (its rounding of the inputs is not an error of ours).
    y64, w64, b64, gz = y.double(), None if w is None else w.double(), None if b is None else b.double(), cast(gz64)
    gz64 = gz.double()
    chain = lambda t, wt, bt: _torch_chain(t, groups, wt, bt, eps, kind, args)  # noqa: E731
    ours_fn = lambda t, wt, bt: fused.act_group_norm(t, groups, wt, bt, eps, kind, args)  # noqa: E731
    ref64 = _run(chain, y64, w64, b64, gz64)
    theirs = _run(chain, y, w, b, gz)
    if poison is not None:
        poison()
    ours = _run(ours_fn, y, w, b, gz)
    return ours, ref64, theirs


def _random_shapes(count, seed):
    rng = random.Random(seed)
    shapes = []
    for _ in range(count):
        dims = rng.choice([2, 3])
        channels = rng.choice([1, 3, 4, 6, 8, 12, 16, 24, 32, 40])
        divisors = [g for g in range(1, channels + 1) if channels % g == 0]
        groups = rng.choice(sorted({1, channels, rng.choice(divisors)}))
        spatial = tuple(rng.randint(1, 12 if dims == 3 else 40) for _ in range(dims))
        shapes.append(((rng.randint(1, 4), channels) + spatial, groups))
    return shapes


@pytest.mark.parametrize("kind,args", ACTIVATIONS, ids=ACTIVATION_IDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("affine", [True, False])
def test_every_activation(kind, args, dtype, layout, affine, poison_allocator):
    for index, (shape, groups) in enumerate([((2, 16, 9, 11), 4), ((3, 8, 5, 4, 6), 8), ((2, 6, 7, 3), 1)]):
        what = f"{kind}{args} {dtype} {layout} affine={affine} shape={shape} groups={groups}"
        ours, ref64, theirs = _case(shape, groups, kind, args, affine, 1e-5, dtype, layout, seed=index,
                                    poison=poison_allocator)
        _assert_matches(ours, ref64, theirs, dtype, what)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_random_shapes_groups_layouts(seed, dtype, poison_allocator):
    rng = random.Random(100 + seed)
    for shape, groups in _random_shapes(4, seed):
        kind, args = rng.choice(ACTIVATIONS)
        layout = rng.choice(LAYOUTS)
        eps = rng.choice([1e-5, 1e-3, 0.1])
        affine = rng.random() < 0.7
        what = f"{kind}{args} {dtype} {layout} affine={affine} shape={shape} groups={groups} eps={eps}"
        ours, ref64, theirs = _case(shape, groups, kind, args, affine, eps, dtype, layout, seed=seed,
                                    poison=poison_allocator)
        _assert_matches(ours, ref64, theirs, dtype, what)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_large_group_many_splits(layout, poison_allocator):
    """Groups of many elements (reductions cut into many pieces per channel) and a large mean:
    the Welford/Chan merge must keep fp32 statistics accurate."""
    shape, groups = (2, 8, 24, 40, 36), 2
    gen = torch.Generator(device="cuda").manual_seed(7)
    y = _layout(torch.randn(shape, generator=gen, device="cuda") * 0.5 + 30.0, layout)
    ref = F.group_norm(y.double(), groups, None, None, 1e-5)
    poison_allocator()
    out = fused.act_group_norm(y, groups, None, None, 1e-5, "identity", {})
    torch.testing.assert_close(out.double(), ref, atol=2e-4, rtol=1e-4)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("affine", [True, False])
def test_batch_zero(layout, affine):
    shape = (0, 8, 4, 5)
    y = _layout(torch.randn(shape, device="cuda"), layout).requires_grad_()
    w = torch.randn(8, device="cuda", requires_grad=True) if affine else None
    b = torch.randn(8, device="cuda", requires_grad=True) if affine else None
    out = fused.act_group_norm(y, 4, w, b, 1e-5, "relu", {})
    assert out.shape == shape and _fused_epilogue_ran(out)
    grads = torch.autograd.grad(out, [t for t in (y, w, b) if t is not None], torch.randn(shape, device="cuda"))
    assert grads[0].shape == shape
    for g in grads[1:]:
        assert torch.equal(g, torch.zeros_like(g))


def test_deterministic(poison_allocator):
    for layout in LAYOUTS:
        results = []
        for _ in range(2):
            poison_allocator()
            results.append(_case((4, 32, 20, 18, 9), 8, "silu", {}, True, 1e-5, torch.float32, layout)[0])
        for first, second in zip(*results):
            assert torch.equal(first, second), f"{layout}: two runs differ"


def test_current_stream():
    """The kernels run on the current stream: work queued before them on a side stream (a long
    sleep, then the copy that fills the input) must finish before they read it."""
    shape, groups = (2, 16, 12, 10, 8), 4
    y = torch.randn(shape, device="cuda")
    w, b = torch.randn(16, device="cuda"), torch.randn(16, device="cuda")
    want = F.group_norm(F.gelu(y.double()), groups, w.double(), b.double(), 1e-5)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        staged = torch.full_like(y, float("nan"))
        torch.cuda._sleep(50_000_000)
        staged.copy_(y)
        out = fused.act_group_norm(staged, groups, w, b, 1e-5, "gelu", {"approximate": "none"})
    torch.cuda.current_stream().wait_stream(side)
    torch.testing.assert_close(out.double(), want, atol=1e-4, rtol=1e-4)


def test_fallbacks_keep_torch_semantics():
    y = torch.randn(2, 8, 5, 6, device="cuda", dtype=torch.float64)
    assert not fused._kernels_apply(y, None, None)  # fp64 -> torch
    strided = torch.randn(2, 8, 5, 12, device="cuda")[..., ::2]
    assert not fused._kernels_apply(strided, None, None)
    torch.testing.assert_close(fused.act_group_norm(strided, 4, None, None, 1e-5, "tanh", {}),
                               F.group_norm(torch.tanh(strided), 4), rtol=0, atol=0)
    empty_spatial = torch.randn(2, 8, 0, 6, device="cuda")
    assert not fused._kernels_apply(empty_spatial, None, None)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_conv_transpose_act_group_norm3d_end_to_end(layout, poison_allocator):
    torch.manual_seed(0)
    seq = nn.Sequential(nn.ConvTranspose3d(8, 32, 3, stride=2, padding=1, output_padding=1, bias=True), nn.ReLU(),
                        nn.GroupNorm(8, 32)).cuda()
    with torch.no_grad():
        for p in seq.parameters():
            p.copy_(torch.randn_like(p) * 0.5)
    fused_module = tconv.ConvTransposeActGroupNorm3d.fuse(seq[0], seq[1], seq[2])
    x = _layout(torch.rand(2, 8, 6, 7, 5, device="cuda"), layout)
    grad = torch.randn(2, 32, 12, 14, 10, device="cuda")

    def run(model, inputs, grad_out):
        inputs = inputs.detach().clone(memory_format=_memory_format(inputs)).requires_grad_()
        out = model(inputs)
        params = [seq[0].weight, seq[0].bias, seq[2].weight, seq[2].bias]
        return out, [out.detach()] + [g.detach() for g in torch.autograd.grad(out, [inputs] + params, grad_out)]

    seq64 = nn.Sequential(nn.ConvTranspose3d(8, 32, 3, stride=2, padding=1, output_padding=1), nn.ReLU(),
                          nn.GroupNorm(8, 32)).cuda().double()
    seq64.load_state_dict(seq.state_dict())
    inputs64 = x.double().detach().requires_grad_()
    out64 = seq64(inputs64)
    ref64 = [out64.detach()] + [g.detach() for g in torch.autograd.grad(
        out64, [inputs64, seq64[0].weight, seq64[0].bias, seq64[2].weight, seq64[2].bias], grad.double())]
    old = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    try:
        poison_allocator()
        out, ours = run(fused_module, x, grad)
    finally:
        torch.backends.cudnn.allow_tf32 = old
    assert _fused_epilogue_ran(out), "the fused epilogue did not run"
    names = ["output", "grad_input", "conv.weight", "conv.bias", "norm.weight", "norm.bias"]
    for name, got, want in zip(names, ours, ref64):
        scale = max(1.0, want.pow(2).mean().sqrt().item())
        torch.testing.assert_close(got.double(), want, atol=1e-4 * scale, rtol=1e-4, msg=lambda m: f"{name}: {m}")


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_fused_backward_runs_the_conv_passes_concurrently(dtype, monkeypatch):
    """The block's backward takes the conv's concurrent path (grad_weight and grad_bias on the side stream beside
    grad_input, _ops._backward_maybe_concurrent) in plain eager calls: a signature's first backward records the passes'
    extras, later ones (the rule forced to admit them here) run concurrently, and every gradient is the serial path's
    bit for bit, with the caller's stream current afterwards."""
    gen = torch.Generator(device="cuda").manual_seed(61)
    conv = nn.ConvTranspose3d(16, 32, 3, bias=True).cuda().to(dtype)
    norm = nn.GroupNorm(8, 32).cuda().to(dtype)
    with torch.no_grad():
        for p in list(conv.parameters()) + list(norm.parameters()):
            p.copy_(torch.randn(p.shape, device="cuda", generator=gen).to(dtype) * 0.5)
    block = tconv.ConvTransposeActGroupNorm3d.fuse(conv, nn.ReLU(), norm)
    x = torch.randn(2, 16, 6, 8, 7, device="cuda", generator=gen).to(dtype).requires_grad_()
    grad = torch.randn(2, 32, 8, 10, 9, device="cuda", generator=gen).to(dtype)
    params = [conv.weight, conv.bias, norm.weight, norm.bias]  # the block shares them (its norm is not a child)

    def gradients():
        out = block(x)
        assert _fused_epilogue_ran(out), "the fused block did not run"
        return [g.clone() for g in torch.autograd.grad(out, [x] + params, grad)]

    stream = torch.cuda.current_stream()
    monkeypatch.setattr(tconv._ops, "_NATIVE_BACKWARD", False)  # the Python path's side stream, as named above
    monkeypatch.setattr(tconv._ops, "_concurrent_fits", {})
    monkeypatch.setattr(tconv._ops, "_CONCURRENT_BACKWARD", False)
    serial = gradients()
    assert not tconv._ops._concurrent_fits
    monkeypatch.setattr(tconv._ops, "_CONCURRENT_BACKWARD", True)
    monkeypatch.setattr(tconv._ops, "concurrent_backward_fits", lambda *extras: True)
    runs = [gradients() for _ in range(3)]
    assert len(tconv._ops._concurrent_fits) == 1, "the conv's backward did not take the concurrent path"
    assert next(iter(tconv._ops._concurrent_fits.values()))[0] is True
    assert len(serial) == 5
    for run in runs:
        for mine, theirs in zip(run, serial):
            assert torch.equal(mine, theirs)
    assert torch.cuda.current_stream() == stream


@pytest.mark.skipif(not tconv._ops.USE_TORCH_LIBRARY, reason="torch.library custom-op API unavailable")
@pytest.mark.parametrize("layout", LAYOUTS)
def test_act_group_norm_op_opcheck_cuda(layout):
    y = _layout(torch.randn(2, 8, 5, 6, device="cuda"), layout).requires_grad_()
    w = torch.rand(8, device="cuda", requires_grad=True)
    b = torch.randn(8, device="cuda", requires_grad=True)
    torch.library.opcheck(torch.ops.tconv.act_group_norm.default, (y, w, b, 4, 1e-5, "silu", 0.0, 0.0))


def _kernel_names(prof):
    return [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]


# (C_in, C_out, GroupNorm groups, activation, bias, input's spatial size; kernel 3 along each dimension): a group of one
# warp's 16 channels (L2-61), of two warps (32), one group per tile (8 warps), a group over two tiles, 16 groups of 8
# (two groups a warp), a C_out that leaves the last tile part-filled (160: tiles of 128), 2D blocks, lines longer than a
# tile, and activations (the store takes every one: unit_stride_group_stats_activation). An even W (even lines, as L2-61's)
# gives 16-bit x its position-pair kernel (unit_stride_x_pairs) on contiguous inputs, an odd one the per-position
# kernel. Every sample holds more than a 256-row tile (the store's condition), and 3 samples put tiles across their
# boundaries.
CONV_STATS_CASES = [
    (16, 128, 8, ("relu", {}), False, (5, 6, 10)),
    (16, 128, 4, ("hardswish", {}), True, (5, 6, 9)),
    (16, 128, 1, ("hardtanh", {"min_val": -0.5, "max_val": 1.0}), True, (5, 6, 9)),
    (8, 256, 1, ("relu", {}), True, (5, 6, 10)),
    (16, 128, 16, ("identity", {}), False, (5, 6, 10)),
    (16, 160, 10, ("leaky_relu", {"negative_slope": 0.2}), True, (5, 6, 9)),
    (16, 128, 8, ("relu", {}), True, (20, 10)),
    (24, 128, 2, ("leaky_relu", {"negative_slope": 0.1}), False, (21, 13)),
    (16, 128, 8, ("relu", {}), True, (2, 300)),  # 304-row lines: tiles of 256 stored rows (the unmasked form)
    (16, 128, 8, ("gelu", {"approximate": "none"}), True, (5, 6, 10)),
    (16, 128, 2, ("silu", {}), False, (20, 10)),
    (16, 128, 16, ("sigmoid", {}), True, (5, 6, 9)),
]


@pytest.mark.parametrize("case", range(len(CONV_STATS_CASES)))
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_conv_store_makes_group_statistics(case, dtype, layout, poison_allocator, monkeypatch):
    """On Hopper, where the unit-stride forward runs (igemm_strip forces it: TF32 mode or fp16/bf16), the conv's store
    makes act(y)'s GroupNorm statistics: no statistics pass runs, and z, mean and rstd match the epilogue's own pass
    over the same y (same conv kernel, so the same y; the statistics merged in another order), for 3 samples whose
    rows straddle blocks. The gradients are the unfused tconv chain's."""
    if not wgmma_kernels_run():
        pytest.skip("the unit-stride forward runs on sm_90a builds on compute capability 9.0")
    if os.environ.get("TCONV_UNIT_STRIDE_WIDE_ROWS", "1") == "0":
        pytest.skip("the wide-rows tile, whose store makes the statistics, is switched off")
    monkeypatch.setattr(fused, "CONV_STORE_STATISTICS", True)  # by default fp32 data only (see fused.py)
    c_in, c_out, groups, (kind, args), bias, spatial = CONV_STATS_CASES[case]
    dims, w_in = len(spatial), spatial[-1]
    ones, zeros = [1] * dims, [0] * dims
    gen = torch.Generator(device="cuda").manual_seed(31 + case)
    x = _layout(torch.randn(3, c_in, *spatial, generator=gen, device="cuda").to(dtype), layout)
    w = (torch.randn(c_in, c_out, *[3] * dims, generator=gen, device="cuda") * 0.2).to(dtype)
    b = (torch.randn(c_out, generator=gen, device="cuda") * 0.5).to(dtype) if bias else None
    gamma = (torch.rand(c_out, generator=gen, device="cuda") + 0.5).to(dtype)
    beta = torch.randn(c_out, generator=gen, device="cuda").to(dtype)
    grad_z = torch.randn(3, c_out, *[size + 2 for size in spatial], generator=gen, device="cuda").to(dtype)
    name, arg0, arg1 = fused._activation_name(kind, args)
    leaves = [t.detach().clone().requires_grad_() if t is not None else None for t in (x, w, b, gamma, beta)]
    old = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = True
    try:
        with tconv._ops.use_algorithm("igemm_strip"):
            poison_allocator()
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                z, y, mean, rstd = fused._conv_act_group_norm_cuda(*leaves, ones, zeros, zeros, ones, 1, groups, 1e-5,
                                                                   name, arg0, arg1)
                torch.cuda.synchronize()
            z_pass, mean_pass, rstd_pass = fused._act_group_norm_cuda(y, gamma, beta, groups, 1e-5, name, arg0, arg1)
            out = fused.conv_transpose_act_group_norm(leaves[0], leaves[1], leaves[2], ones, zeros, zeros, ones, 1,
                                                      groups, leaves[3], leaves[4], 1e-5, kind, args)
            grads = torch.autograd.grad(out, [t for t in leaves if t is not None], grad_z)
            chain_leaves = [t.detach().clone().requires_grad_() if t is not None else None for t in (x, w, b, gamma,
                                                                                                    beta)]
            conv = tconv.conv_transpose3d if dims == 3 else tconv.conv_transpose2d
            chain = fused.act_group_norm(conv(chain_leaves[0], chain_leaves[1], chain_leaves[2]), groups,
                                         chain_leaves[3], chain_leaves[4], 1e-5, kind, args)
            chain_grads = torch.autograd.grad(chain, [t for t in chain_leaves if t is not None], grad_z)
    finally:
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = old
    names = _kernel_names(prof)
    conv_kernels = [n for n in names if "unit_stride_forward_kernel<" in n]
    assert conv_kernels and all(unit_stride_flags(n)["group_stats"] for n in conv_kernels), names
    x_pairs = dtype != torch.float32 and layout == "contiguous" and w_in % 2 == 0  # unit_stride_x_pairs
    assert all(unit_stride_flags(n)["x_pairs"] == x_pairs for n in conv_kernels), names
    assert not any("stats_channels" in n for n in names), names  # no statistics pass over y
    assert any("finalize_stats" in n for n in names), names
    assert _fused_epilogue_ran(out)
    torch.testing.assert_close(mean, mean_pass, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(rstd, rstd_pass, rtol=1e-4, atol=1e-5)
    # The same values normalised with statistics merged in another order: a rounding step of the dtype at most.
    step = max(1e-5, 2 * torch.finfo(dtype).eps) * max(1.0, z_pass.float().abs().max().item())
    torch.testing.assert_close(z.float(), z_pass.float(), rtol=0, atol=step)
    torch.testing.assert_close(out.detach().float(), z.float(), rtol=0, atol=step)
    for got, want in zip(grads, chain_grads):
        scale = max(1.0, want.float().abs().max().item())
        torch.testing.assert_close(got.float(), want.float(), rtol=0,
                                   atol=scale * (1e-4 if dtype == torch.float32 else 2 * torch.finfo(dtype).eps))


@pytest.mark.parametrize("enabled", [True, False, None])
def test_conv_store_statistics_where_planned(enabled, monkeypatch):
    """With fused.CONV_STORE_STATISTICS True, or None (the rule: fp32 data), the fused module takes the conv-store
    statistics under "auto" on an L2-61-like block (C 64 -> 128, 8 groups, k3, TF32), with a GELU too, and the
    statistics pass where the unit-stride form cannot make them (64 output channels: the 64-channel tiles; groups of 4
    channels); with False, the statistics pass everywhere. Under the rule a bf16 block runs the statistics pass."""
    if not wgmma_kernels_run():
        pytest.skip("the unit-stride forward runs on sm_90a builds on compute capability 9.0")
    if os.environ.get("TCONV_UNIT_STRIDE_WIDE_ROWS", "1") == "0":
        pytest.skip("the wide-rows tile, whose store makes the statistics, is switched off")
    monkeypatch.setattr(fused, "CONV_STORE_STATISTICS", enabled)

    def kernels(c_out, groups, activation=nn.ReLU, dtype=torch.float32):
        seq = nn.Sequential(nn.ConvTranspose3d(64, c_out, 3), activation(), nn.GroupNorm(groups, c_out))
        seq = seq.to("cuda", dtype)
        module = tconv.ConvTransposeActGroupNorm3d.fuse(seq[0], seq[1], seq[2])
        # 345 blocks of 256 rows: "auto" takes the strip form
        x = torch.randn(4, 64, 16, 32, 32, device="cuda", dtype=dtype)
        old = torch.backends.cudnn.allow_tf32
        torch.backends.cudnn.allow_tf32 = True
        try:
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                module(x)
                torch.cuda.synchronize()
        finally:
            torch.backends.cudnn.allow_tf32 = old
        return _kernel_names(prof)
    taken = enabled is not False
    names = kernels(128, 8)
    assert any("unit_stride_forward" in n for n in names), names
    assert any("stats_channels" in n for n in names) != taken, names
    names = kernels(64, 8)
    assert any("stats_channels" in n for n in names), names
    names = kernels(128, 32)
    assert any("stats_channels" in n for n in names), names
    names = kernels(128, 8, nn.GELU)
    assert any("stats_channels" in n for n in names) != taken, names
    names = kernels(128, 8, dtype=torch.bfloat16)
    assert any("unit_stride_forward" in n for n in names), names
    assert any("stats_channels" in n for n in names) == (enabled is not True), names
