"""CPU tests (run in CI): argument rules vs torch, shapes, modules, fake kernels, opcheck, CLI."""
import os
import random
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import tconv
from tconv import _args, _build, _ops

TORCH_FN = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
TCONV_FN = {1: tconv.conv_transpose1d, 2: tconv.conv_transpose2d, 3: tconv.conv_transpose3d}

X = torch.rand(2, 4, 5, 6)
W = torch.rand(4, 3, 3, 3)

# (name, args, kwargs, compare_message): every call must fail in torch and in tconv with the same
# exception type; where torch's message comes from its generic argument checks (not a backend
# library), tconv's first line must be identical.
BAD_CALLS = [
    ("rank5_input", (torch.rand(2, 4, 5, 6, 7), W), {}, True),
    ("rank1_input", (torch.rand(4), W), {}, True),
    ("channels", (torch.rand(2, 5, 5, 6), W), {}, True),
    ("groups_not_dividing", (X, W), {"groups": 3}, True),
    ("groups_zero", (X, W), {"groups": 0}, True),
    ("output_padding_ge_stride", (X, W), {"output_padding": 1}, True),
    ("output_padding_ge_stride2", (X, W), {"stride": 2, "output_padding": 2}, True),
    ("negative_padding", (X, W), {"padding": -1}, True),
    ("negative_output_padding", (X, W), {"output_padding": -1}, True),
    ("zero_stride", (X, W), {"stride": 0}, True),
    ("stride_len", (X, W), {"stride": (1, 1, 1)}, True),
    ("zero_dilation", (X, W), {"dilation": 0}, False),
    ("output_too_small", (torch.rand(2, 4, 1, 1), W), {"padding": 2}, False),
    ("weight_dtype", (X, W.double()), {}, False),
    ("bias_dtype", (X, W, torch.rand(3).double()), {}, False),
    ("bias_shape", (X, W, torch.rand(4)), {}, True),
    ("zero_spatial", (torch.rand(2, 4, 0, 6), W), {}, True),
    ("empty_weight", (torch.rand(2, 0, 5, 6), torch.rand(0, 3, 3, 3)), {}, True),
    ("float_stride", (X, W), {"stride": 1.5}, False),
]


@pytest.mark.parametrize("name,args,kwargs,compare_message", BAD_CALLS, ids=[c[0] for c in BAD_CALLS])
def test_bad_arguments_raise_like_torch(name, args, kwargs, compare_message):
    with pytest.raises(Exception) as torch_err:
        F.conv_transpose2d(*args, **kwargs)
    with pytest.raises(Exception) as tconv_err:
        tconv.conv_transpose2d(*args, **kwargs)
    assert type(tconv_err.value) is type(torch_err.value), (torch_err.value, tconv_err.value)
    if compare_message:
        assert str(tconv_err.value).splitlines()[0] == str(torch_err.value).splitlines()[0]


@pytest.mark.parametrize("name,args,kwargs,compare_message", BAD_CALLS, ids=[c[0] for c in BAD_CALLS])
def test_bad_arguments_raise_after_a_validated_call_of_the_same_shapes(name, args, kwargs, compare_message):
    """The checks' cache (_args._VALIDATED) stores passing calls only: a good call first must not let a bad one
    through, and stride=True must not pass as the cached stride=1."""
    good = tconv.conv_transpose2d(X, W, torch.rand(3))
    assert good.shape == F.conv_transpose2d(X, W, torch.rand(3)).shape
    with pytest.raises(Exception) as torch_err:
        F.conv_transpose2d(*args, **kwargs)
    with pytest.raises(Exception) as tconv_err:
        tconv.conv_transpose2d(*args, **kwargs)
    assert type(tconv_err.value) is type(torch_err.value), (torch_err.value, tconv_err.value)


def test_validated_calls_are_cached_by_everything_the_checks_read():
    _args._VALIDATED.clear()
    tconv.conv_transpose2d(X, W, stride=1)
    assert len(_args._VALIDATED) == 1
    tconv.conv_transpose2d(X.clone(), W.clone(), stride=1)  # same metadata: the same entry
    assert len(_args._VALIDATED) == 1
    with pytest.raises(TypeError):
        tconv.conv_transpose2d(X, W, stride=True)
    with pytest.raises(TypeError):
        tconv.conv_transpose2d(X, W, groups=True)
    tconv.conv_transpose2d(X, W, stride=[1])
    tconv.conv_transpose2d(X.double(), W.double(), stride=1)
    assert len(_args._VALIDATED) == 3
    with pytest.raises(RuntimeError, match="same"):
        tconv.conv_transpose2d(X, W.double())
    assert len(_args._VALIDATED) == 3


def test_as_5d_views_every_layout():
    for t in (torch.rand(2, 3, 7), torch.rand(2, 3, 4, 5), torch.rand(2, 3, 4, 5).to(memory_format=torch.channels_last),
              torch.rand(2, 3, 4, 5)[:, :, ::2, 1:], torch.rand(2, 3, 4, 5, 6), torch.rand(0, 3, 4)):
        view = _ops._as_5d(t)
        assert view.dim() == 5 and view.data_ptr() == t.data_ptr()
        assert torch.equal(view.reshape(t.shape), t)
        assert view.shape[:2] == t.shape[:2] and view.shape[5 - (t.dim() - 2):] == t.shape[2:]


def test_zero_dilation_and_small_output_messages_are_clear():
    with pytest.raises(RuntimeError, match="dilation should be greater than zero"):
        tconv.conv_transpose2d(X, W, dilation=0)
    with pytest.raises(RuntimeError, match="Output size is too small"):
        tconv.conv_transpose2d(torch.rand(2, 4, 1, 1), W, padding=2)


def _random_config(rng: random.Random, dims: int):
    groups = rng.choice([1, 1, 2, 3])
    cin, cout = groups * rng.randint(1, 3), groups * rng.randint(1, 3)
    kernel = [rng.randint(1, 4) for _ in range(dims)]
    stride = [rng.randint(1, 3) for _ in range(dims)]
    dilation = [rng.randint(1, 2) for _ in range(dims)]
    padding = [rng.randint(0, d * (k - 1)) for k, d in zip(kernel, dilation)]
    output_padding = [rng.randint(0, max(s, d) - 1) for s, d in zip(stride, dilation)]
    spatial = [rng.randint(1, 6) for _ in range(dims)]
    batch = rng.choice([0, 1, 2])
    return batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial


@pytest.mark.parametrize("seed", range(60))
def test_random_config_matches_torch_on_cpu(seed):
    """Shape function, values and gradients through tconv's CPU path agree with torch."""
    rng = random.Random(seed)
    dims = rng.randint(1, 3)
    batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial = _random_config(rng, dims)
    x = torch.randn(batch, cin, *spatial, dtype=torch.float64, requires_grad=True)
    w = torch.randn(cin, cout // groups, *kernel, dtype=torch.float64, requires_grad=True)
    b = torch.randn(cout, dtype=torch.float64, requires_grad=True) if rng.random() < 0.5 else None
    args = (stride, padding, output_padding, groups, dilation)
    try:
        ref = TORCH_FN[dims](x, w, b, *args)
    except RuntimeError as err:
        with pytest.raises(RuntimeError):
            TCONV_FN[dims](x, w, b, *args)
        return
    out = TCONV_FN[dims](x, w, b, *args)
    assert list(out.shape) == list(ref.shape)
    assert _args.output_shape(x.shape, w.shape, stride, padding, output_padding, dilation, groups) == list(ref.shape)
    torch.testing.assert_close(out, ref)
    grad = torch.randn_like(ref)
    params = [t for t in (x, w, b) if t is not None]
    for got, want in zip(torch.autograd.grad(out, params, grad), torch.autograd.grad(ref, params, grad)):
        torch.testing.assert_close(got, want)


def test_unbatched_input():
    x = torch.rand(4, 5, 6)
    torch.testing.assert_close(tconv.conv_transpose2d(x, W, stride=2), F.conv_transpose2d(x, W, stride=2))


def test_channels_last_output_memory_format():
    x = torch.rand(2, 4, 5, 6).to(memory_format=torch.channels_last)
    assert _args.memory_format_of(x) == torch.channels_last
    x3 = torch.rand(2, 4, 3, 5, 6).to(memory_format=torch.channels_last_3d)
    assert _args.memory_format_of(x3) == torch.channels_last_3d
    assert _args.memory_format_of(torch.rand(2, 4, 5, 6)) == torch.contiguous_format


def random_strided_views(rng, count):
    """`count` random 4-D / 5-D views: slices with steps of contiguous or channels-last tensors, a fifth of them
    permuted."""
    for _ in range(count):
        dims = rng.choice([4, 5])
        sizes = [rng.randint(1, 4) for _ in range(dims)]
        big = torch.empty([s * rng.randint(1, 3) for s in sizes])
        if rng.random() < 0.5:
            big = big.contiguous(memory_format=torch.channels_last if dims == 4 else torch.channels_last_3d)
        view = big[tuple(slice(rng.randint(0, b - s), None, rng.choice([1, b // s]))
                         for b, s in zip(big.shape, sizes))][tuple(slice(0, s) for s in sizes)]
        if rng.random() < 0.2:
            view = view.permute(*rng.sample(range(dims), dims))
        yield view


def cl_order_increasing(view) -> bool:
    """Brute force: whether the view's elements, walked in channels-last order (batch, spatial, channels innermost),
    lie at strictly increasing addresses."""
    order = [0] + list(range(2, view.dim())) + [1]
    offsets = torch.zeros([view.shape[d] for d in order], dtype=torch.int64)
    for axis, d in enumerate(order):
        shape = [1] * view.dim()
        shape[axis] = view.shape[d]
        offsets = offsets + (torch.arange(view.shape[d]) * view.stride(d)).view(shape)
    flat = offsets.flatten()
    return bool((flat[1:] > flat[:-1]).all())


def test_memory_format_of_strided_views():
    """Tensors that are not dense: channels-last where their elements lie at strictly increasing addresses in
    channels-last order (checked by brute force on random views: slices with steps, permutations), ambiguous ones
    (one channel, every spatial extent 1) contiguous; a strided view of a channels-last tensor (the one-residue
    backward's view of grad_output, also where its last step overruns the extent: run 581's 2D case) is
    channels-last, a sliced contiguous one is not; and wherever PyTorch's suggest_memory_format says channels-last,
    so does tconv."""
    y = torch.rand(2, 8, 9, 11, 13).to(memory_format=torch.channels_last_3d)
    assert _args.memory_format_of(y[:, :, 1::2, 1::2, 1::2]) == torch.channels_last_3d
    assert _args.memory_format_of(y.contiguous()[:, :, 1::2, 1::2, 1::2]) == torch.contiguous_format
    y2 = torch.rand(2, 8, 9, 12).to(memory_format=torch.channels_last)
    assert _args.memory_format_of(y2[..., ::3]) == torch.channels_last
    assert _args.memory_format_of(y2[:, :1, :, :1].contiguous()) == torch.contiguous_format
    # run 581's case: grad_output 26 x 63 under stride 3 from residue 1: H's view of 9 steps spans 27 rows
    g = torch.rand(2, 96, 26, 63).to(memory_format=torch.channels_last)
    assert _args.memory_format_of(g[:, :, 1::3, 1::3]) == torch.channels_last
    try:
        from torch._prims_common import suggest_memory_format
    except ImportError:
        suggest_memory_format = None  # (older torch: the brute force only)
    checked = agreed = 0
    for view in random_strided_views(random.Random(13), 2000):
        channels_last = torch.channels_last if view.dim() == 4 else torch.channels_last_3d
        if view.is_contiguous() or view.is_contiguous(memory_format=channels_last):
            continue  # dense: contiguous first, then dense channels-last (unchanged)
        checked += 1
        ambiguous = view.shape[1] == 1 or all(n == 1 for n in view.shape[2:])
        want = channels_last if cl_order_increasing(view) and not ambiguous else torch.contiguous_format
        assert _args.memory_format_of(view) == want, (view.shape, view.stride())
        if suggest_memory_format is not None and suggest_memory_format(view) == channels_last and not ambiguous:
            agreed += 1
            assert want == channels_last, (view.shape, view.stride())
    assert checked > 1000 and (suggest_memory_format is None or agreed > 100), (checked, agreed)


MODULE_ARGS = [
    (1, dict(in_channels=4, out_channels=6, kernel_size=3, stride=2, padding=1, output_padding=1, groups=2)),
    (2, dict(in_channels=4, out_channels=6, kernel_size=(3, 2), stride=(2, 1), bias=False, dilation=(1, 2))),
    (3, dict(in_channels=3, out_channels=3, kernel_size=2, stride=2, groups=3)),
]


@pytest.mark.parametrize("dims,kwargs", MODULE_ARGS)
def test_module_matches_torch_module(dims, kwargs):
    torch_cls = {1: nn.ConvTranspose1d, 2: nn.ConvTranspose2d, 3: nn.ConvTranspose3d}[dims]
    tconv_cls = {1: tconv.ConvTranspose1d, 2: tconv.ConvTranspose2d, 3: tconv.ConvTranspose3d}[dims]
    torch.manual_seed(0)
    ref = torch_cls(**kwargs)
    torch.manual_seed(0)
    mod = tconv_cls(**kwargs)
    assert isinstance(mod, torch_cls)
    assert list(mod.state_dict()) == list(ref.state_dict())
    for key, value in ref.state_dict().items():
        assert torch.equal(mod.state_dict()[key], value)
    mod.load_state_dict(ref.state_dict(), strict=True)
    ref.load_state_dict(mod.state_dict(), strict=True)
    x = torch.rand(2, kwargs["in_channels"], *([5] * dims))
    torch.testing.assert_close(mod(x), ref(x))
    assert repr(mod).split("(", 1)[1] == repr(ref).split("(", 1)[1]


def test_module_output_size_and_errors():
    torch.manual_seed(0)
    ref = nn.ConvTranspose2d(4, 6, 3, stride=3, padding=1)
    mod = tconv.ConvTranspose2d.from_torch(ref)
    x = torch.rand(1, 4, 5, 5)
    for size in ([13, 13], [14, 15], [1, 6, 15, 13]):
        torch.testing.assert_close(mod(x, output_size=size), ref(x, output_size=size))
    for size in ([12, 13], [16, 13], [13]):
        with pytest.raises(ValueError) as want:
            ref(x, output_size=size)
        with pytest.raises(ValueError) as got:
            mod(x, output_size=size)
        assert str(got.value).split("(")[0] == str(want.value).split("(")[0]
    with pytest.raises(ValueError):
        tconv.ConvTranspose2d(4, 6, 3, padding_mode="reflect")
    with pytest.raises(TypeError):
        tconv.ConvTranspose3d.from_torch(ref)
    assert mod.weight is ref.weight


def test_meta_tensors_give_shapes():
    x = torch.empty(2, 4, 7, 9, 11, device="meta")
    w = torch.empty(4, 3, 3, 5, 7, device="meta")
    out = tconv.conv_transpose3d(x, w, stride=2, padding=(1, 2, 3), output_padding=1, groups=2)
    assert out.device.type == "meta"
    assert list(out.shape) == list(F.conv_transpose3d(x, w, stride=2, padding=(1, 2, 3), output_padding=1, groups=2).shape)


needs_library = pytest.mark.skipif(not _ops.USE_TORCH_LIBRARY, reason="torch.library custom-op API unavailable")


@needs_library
def test_torch_compile_traces_without_graph_breaks():
    mod = tconv.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2)
    compiled = torch.compile(mod, backend="aot_eager", fullgraph=True)
    x = torch.rand(2, 4, 5, 6, requires_grad=True)
    out = compiled(x)
    torch.testing.assert_close(out, mod(x))
    out.sum().backward()
    assert x.grad is not None and mod.weight.grad is not None


def test_eager_calls_between_compiled_calls_cause_no_recompile():
    """The argument checks' cache is a global dict: traced by dynamo, its changes would fail the compiled frame's
    guards (a recompile after every new eager shape, then eager fallback at the recompile limit)."""
    counter = pytest.importorskip("torch._dynamo.testing").CompileCounter()
    mod = tconv.ConvTranspose2d(4, 6, 3, stride=2, padding=1)
    compiled = torch.compile(mod, backend=counter)
    x = torch.rand(2, 4, 5, 6)
    compiled(x)
    compiled(x)
    for size in (3, 4, 7):  # new argument sets through the eager path
        tconv.conv_transpose2d(torch.rand(1, 4, size, size), mod.weight, stride=2)
    torch.testing.assert_close(compiled(x), mod(x))
    assert counter.frame_count == 1


@needs_library
def test_plain_eager_calls_skip_the_library_dispatch():
    """Plain eager calls run the autograd.Function (the same implementations, less host time: _plain_eager_call);
    meta tensors, FakeTensor, Python dispatch modes and tracing keep the registered op and its fake kernel."""
    mod = tconv.ConvTranspose2d(4, 6, 3, stride=2, padding=1, groups=2)
    x = torch.rand(2, 4, 5, 6, requires_grad=True)
    out = mod(x)
    assert type(out.grad_fn).__name__.startswith("_ConvTransposeFunction"), type(out.grad_fn).__name__
    torch.testing.assert_close(out, torch.nn.functional.conv_transpose2d(x, mod.weight, mod.bias, 2, 1, groups=2))
    out.sum().backward()
    assert x.grad is not None and mod.weight.grad is not None and mod.bias.grad is not None

    # Where no gradient is needed the forward skips the Function too (_eager_conv_transpose): same values, no graph.
    reference = torch.nn.functional.conv_transpose2d(x, mod.weight, mod.bias, 2, 1, groups=2)
    with torch.no_grad():
        plain = mod(x)
    assert plain.grad_fn is None and not plain.requires_grad
    torch.testing.assert_close(plain, reference)
    detached = tconv.conv_transpose2d(x.detach(), mod.weight.detach(), mod.bias.detach(), 2, 1, groups=2)
    assert detached.grad_fn is None
    torch.testing.assert_close(detached, reference)
    only_bias = tconv.conv_transpose2d(x.detach(), mod.weight.detach(), mod.bias, 2, 1, groups=2)
    assert type(only_bias.grad_fn).__name__.startswith("_ConvTransposeFunction")

    meta = tconv.conv_transpose2d(torch.empty(2, 4, 5, 6, device="meta"), torch.empty(4, 3, 3, 3, device="meta"),
                                  None, 2, 1, groups=2)
    assert meta.device.type == "meta" and meta.shape == out.shape

    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        fake = tconv.conv_transpose2d(torch.empty(2, 4, 5, 6), torch.empty(4, 3, 3, 3), None, 2, 1, groups=2)
    assert fake.shape == out.shape

    from torch.utils._python_dispatch import TorchDispatchMode

    class RecordOps(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.ops = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.ops.append(str(func))
            return func(*args, **(kwargs or {}))

    with RecordOps() as mode:
        tconv.conv_transpose2d(x.detach(), mod.weight.detach(), None, 2, 1, groups=2)
    assert any("tconv.conv_transpose" in op for op in mode.ops), mode.ops


@needs_library
@pytest.mark.parametrize("dims", [1, 2, 3])
def test_opcheck_cpu(dims):
    from torch.library import opcheck

    x = torch.rand(2, 4, *([4] * dims), requires_grad=True)
    w = torch.rand(4, 3, *([3] * dims), requires_grad=True)
    b = torch.rand(6, requires_grad=True)
    s, p, op, d = [2] * dims, [1] * dims, [1] * dims, [1] * dims
    opcheck(torch.ops.tconv.conv_transpose.default, (x, w, b, s, p, op, d, 2))
    y = tconv.functional._ops.conv_transpose(x, w, b, s, p, op, d, 2).detach()
    g = torch.randn_like(y)
    opcheck(torch.ops.tconv.conv_transpose_grad_input.default, (g, w.detach(), list(x.shape), s, p, d, 2))
    opcheck(torch.ops.tconv.conv_transpose_grad_weight.default, (g, x.detach(), list(w.shape), s, p, d, 2))
    opcheck(torch.ops.tconv.conv_transpose_grad_bias.default, (g,))


def test_autograd_function_path_on_cpu():
    """The torch < 2.4 path (autograd.Function), forced on this torch through the env switch."""
    code = (
        "import torch, tconv, torch.nn.functional as F\n"
        "from tconv import _ops\n"
        "assert not _ops.USE_TORCH_LIBRARY and _ops.registered_ops() == []\n"
        "x = torch.rand(2, 4, 5, 6, dtype=torch.float64, requires_grad=True)\n"
        "w = torch.rand(4, 3, 3, 3, dtype=torch.float64, requires_grad=True)\n"
        "b = torch.rand(6, dtype=torch.float64, requires_grad=True)\n"
        "assert torch.autograd.gradcheck(lambda *a: tconv.conv_transpose2d(*a, stride=2, padding=1, groups=2), (x, w, b))\n"
        "with torch.no_grad():\n"  # the forward without the Function (_eager_conv_transpose)
        "    torch.testing.assert_close(tconv.conv_transpose2d(x, w, b, 2, 1, 1, 2), F.conv_transpose2d(x, w, b, 2, 1, 1, 2))\n"
        "xm, wm = (torch.empty_like(t, device='meta', requires_grad=True) for t in (x, w))\n"  # meta tensors: shapes only
        "ym = tconv.conv_transpose2d(xm, wm, None, 2, 1, 1, 2)\n"
        "assert ym.device.type == 'meta' and ym.shape == F.conv_transpose2d(x, w, None, 2, 1, 1, 2).shape\n"
        "ym.sum().backward()\n"
        "assert xm.grad.shape == x.shape and wm.grad.shape == w.shape\n"
        "print('ok')\n")
    env = dict(os.environ, TCONV_DISABLE_TORCH_LIBRARY="1")
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and "ok" in result.stdout, result.stderr


def test_gradcheck_cpu_fallback():
    x = torch.rand(1, 2, 3, 4, 3, dtype=torch.float64, requires_grad=True)
    w = torch.rand(2, 2, 2, 3, 2, dtype=torch.float64, requires_grad=True)
    b = torch.rand(2, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda *a: tconv.conv_transpose3d(*a, stride=(2, 1, 3), dilation=(1, 2, 1)), (x, w, b))


def test_arch_flags(monkeypatch):
    monkeypatch.delenv("TORCH_CUDA_ARCH_LIST", raising=False)
    assert _build.arch_list() == ["8.0", "9.0"]
    assert _build.gencode_flags(["8.0", "9.0+PTX"]) == [
        "-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_90a,code=sm_90a",
        "-gencode=arch=compute_90,code=compute_90", "-DTCONV_WGMMA"]
    assert _build.gencode_flags(["8.0"]) == ["-gencode=arch=compute_80,code=sm_80"]
    monkeypatch.setenv("TORCH_CUDA_ARCH_LIST", "9.0")
    assert _build.arch_list() == ["9.0"]
    with pytest.raises(ValueError):
        _build.gencode_flags(["sm90"])


def test_build_compiles_every_source_file():
    """Every .cu and .cpp under csrc is in the build (a translation unit left out, e.g. one of conv_transpose_igemm.cu's
    parts, would leave its entry points undefined until the extension loads on a GPU)."""
    on_disk = sorted(name for name in os.listdir(_build.CSRC) if name.endswith((".cu", ".cpp")))
    assert sorted(_build.SOURCES) == on_disk


def test_info_command_runs(capsys):
    from tconv.__main__ import main

    assert main(["info"]) == 0
    out = capsys.readouterr().out
    for key in ("tconv", "torch", "cuDNN", "GPU", "arch list", "ops"):
        assert key in out


def test_cuda_kernels_refuse_integer_dtypes():
    with pytest.raises(RuntimeError, match="not implemented"):
        _ops._check_cuda_dtype(torch.zeros(1, dtype=torch.int64), "conv_transpose")


@pytest.mark.skipif(torch.version.cuda is not None, reason="checks the message of a torch without CUDA")
def test_build_command_without_cuda(capsys):
    from tconv.__main__ import main

    assert main(["build"]) == 2
    assert "no CUDA support" in capsys.readouterr().err


@pytest.mark.skipif(torch.version.cuda is not None, reason="a torch with CUDA would build here")
def test_build_break_lock_removes_a_stale_lock(tmp_path, monkeypatch, capsys):
    """A killed build's lock (run 309 waited on one) is removed by --break-lock, and only with it."""
    from tconv import _build
    from tconv.__main__ import main

    monkeypatch.setenv("TCONV_BUILD_DIR", str(tmp_path))
    directory = _build.build_directory()
    os.makedirs(directory)
    lock = os.path.join(directory, "lock")
    open(lock, "w").close()
    assert main(["build"]) == 2 and os.path.exists(lock)
    assert main(["build", "--break-lock"]) == 2 and not os.path.exists(lock)
    assert "removed a stale lock" in capsys.readouterr().err
