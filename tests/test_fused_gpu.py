"""tconv's fused activation -> GroupNorm CUDA kernels (tconv/csrc/group_norm_act.cu) against a
float64 reference: output and the gradients of y, gamma and beta for every activation, groups
1/some/C, affine on/off, eps, fp32/fp16/bf16, contiguous and channels_last, 2D/3D, batch 0; NaN
poisoned outputs, bitwise determinism, current-stream use; and ConvTransposeActGroupNorm3d end to
end against nn.Sequential(ConvTranspose3d, ReLU, GroupNorm). Skipped without CUDA.

Tolerances (DESIGN.md section 3): fp32 allclose(rtol 1e-4, atol 1e-4 x max(1, rms)); fp16/bf16
at most 2x the error of torch's own activation + group_norm in that dtype (both against float64,
as max error over max magnitude) plus a quarter of the dtype's epsilon."""
import random

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import tconv
from conftest import FUSED_ACTIVATION_IDS as ACTIVATION_IDS
from conftest import FUSED_ACTIVATIONS as ACTIVATIONS
from conftest import cuda_ready
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
    """The output's grad_fn is tconv's epilogue: the torch.library op's autograd node (torch >= 2.4)
    or the autograd.Function of older torch."""
    name = type(out.grad_fn).__name__
    return name.startswith("_ActGroupNormFunction") or "tconv_act_group_norm" in name


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


@pytest.mark.skipif(not tconv._ops.USE_TORCH_LIBRARY, reason="torch.library custom-op API unavailable")
@pytest.mark.parametrize("layout", LAYOUTS)
def test_act_group_norm_op_opcheck_cuda(layout):
    y = _layout(torch.randn(2, 8, 5, 6, device="cuda"), layout).requires_grad_()
    w = torch.rand(8, device="cuda", requires_grad=True)
    b = torch.randn(8, device="cuda", requires_grad=True)
    torch.library.opcheck(torch.ops.tconv.act_group_norm.default, (y, w, b, 4, 1e-5, "silu", 0.0, 0.0))
