"""The math of tconv's fused activation -> GroupNorm kernels, on CPU in float64: the pure-torch
reference of the kernels' steps (tconv/_group_norm_reference.py) equals torch's autograd of
activation + F.group_norm for every activation (kinks included), affine on/off, 2D/3D; the Python
dispatch sends only what the kernels handle to them; activation codes match the C++ enum."""
import os
import re

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import tconv
from conftest import FUSED_ACTIVATION_IDS as ACTIVATION_IDS
from conftest import FUSED_ACTIVATIONS as ACTIVATIONS
from tconv import _group_norm_reference as ref
from tconv import fused


# Points where activations have kinks or switch branches: the gradient conventions there differ
# between plausible implementations, so they are planted in every input.
KINKS = [0.0, -3.0, 3.0, -0.5, 0.75, 6.0, 1.0, -1.0]


def _input(shape, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randn(shape, generator=g, dtype=torch.float64) * 2.5 + 0.3
    flat = y.view(-1)
    picks = torch.randperm(flat.numel(), generator=g)[: 4 * len(KINKS)]
    flat[picks] = torch.tensor(KINKS * 4, dtype=torch.float64)
    return y


def _torch_chain(y, groups, weight, bias, eps, kind, args):
    return F.group_norm(fused._ACTIVATIONS[kind](y, **args), groups, weight, bias, eps)


@pytest.mark.parametrize("kind,args", ACTIVATIONS, ids=ACTIVATION_IDS)
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("shape,groups", [((3, 6, 5, 7), 3), ((2, 8, 3, 4, 5), 2), ((2, 4, 3, 3), 4), ((1, 4, 9, 2), 1)])
def test_reference_matches_torch_autograd(kind, args, affine, shape, groups):
    y = _input(shape).requires_grad_()
    channels = shape[1]
    g = torch.Generator().manual_seed(1)
    weight = torch.randn(channels, generator=g, dtype=torch.float64).requires_grad_() if affine else None
    bias = torch.randn(channels, generator=g, dtype=torch.float64).requires_grad_() if affine else None
    eps = 1e-5
    z_torch = _torch_chain(y, groups, weight, bias, eps, kind, args)
    grad_z = torch.randn(shape, generator=g, dtype=torch.float64)
    wrt = [y] + ([weight, bias] if affine else [])
    grads_torch = torch.autograd.grad(z_torch, wrt, grad_z)

    with torch.no_grad():
        z, mean, rstd = ref.group_norm_act_forward(y, groups, weight, bias, eps, kind, args)
        grad_y, grad_weight, grad_bias = ref.group_norm_act_backward(grad_z, y, mean, rstd, groups, weight, kind, args)
    torch.testing.assert_close(z, z_torch.detach(), rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(grad_y, grads_torch[0], rtol=1e-10, atol=1e-10)
    if affine:
        torch.testing.assert_close(grad_weight, grads_torch[1], rtol=1e-10, atol=1e-10)
        torch.testing.assert_close(grad_bias, grads_torch[2], rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("kind,args", ACTIVATIONS, ids=ACTIVATION_IDS)
def test_activation_slopes_match_torch_at_kinks(kind, args):
    x = torch.tensor(KINKS + [-7.0, -2.9, 2.9, 7.0, 0.3, -0.3], dtype=torch.float64, requires_grad=True)
    slope, = torch.autograd.grad(fused._ACTIVATIONS[kind](x, **args).sum(), x)
    torch.testing.assert_close(ref.activation_slope(kind, x.detach(), args), slope, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(ref.activation_value(kind, x.detach(), args), fused._ACTIVATIONS[kind](x.detach(), **args),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("splits", [1, 2, 5])
def test_chan_merged_statistics_equal_two_pass(splits):
    x = _input((3, 6, 11, 4)) * 100 + 1e3  # a large offset: the merge must stay stable
    mean, rstd = ref.group_statistics(x, 3, 1e-5, splits=splits)
    var, mu = torch.var_mean(x.reshape(3, 3, -1), dim=2, unbiased=False)
    torch.testing.assert_close(mean, mu, rtol=1e-12, atol=1e-9)
    torch.testing.assert_close(rstd, torch.rsqrt(var + 1e-5), rtol=1e-10, atol=0)


def test_activation_codes_match_the_cuda_enum():
    header = os.path.join(os.path.dirname(tconv.__file__), "csrc", "group_norm_act.h")
    with open(header) as f:
        text = f.read()
    enum = re.search(r"enum class Activation : int \{(.*?)\};", text, re.S).group(1)
    codes = {name: int(value) for name, value in re.findall(r"k(\w+) = (\d+)", enum)}
    expected = {"Identity": "identity", "Relu": "relu", "LeakyRelu": "leaky_relu", "Gelu": "gelu",
                "GeluTanh": "gelu_tanh", "Silu": "silu", "Hardswish": "hardswish", "Tanh": "tanh",
                "Sigmoid": "sigmoid", "Hardtanh": "hardtanh"}
    assert {expected[name]: code for name, code in codes.items()} == fused._ACTIVATION_CODES
    assert fused._activation_kernel_args("gelu", {"approximate": "tanh"})[0] == codes["GeluTanh"]
    assert fused._activation_kernel_args("gelu", {"approximate": "none"})[0] == codes["Gelu"]
    assert fused._activation_kernel_args("hardtanh", {"min_val": -1.0, "max_val": 2.0}) == (codes["Hardtanh"], -1.0, 2.0)
    assert fused._activation_kernel_args("leaky_relu", {"negative_slope": 0.2}) == (codes["LeakyRelu"], 0.2, 0.0)


def test_kernel_layout_classification():
    y = torch.randn(2, 4, 3, 5)
    assert fused._kernel_layout(y) is False
    assert fused._kernel_layout(y.to(memory_format=torch.channels_last)) is True
    assert fused._kernel_layout(torch.randn(2, 4, 3, 5, 6).to(memory_format=torch.channels_last_3d)) is True
    assert fused._kernel_layout(y[:, :, :, ::2]) is None
    assert fused._kernel_layout(y.transpose(2, 3)) is None


def test_cpu_and_fp64_take_torch_path():
    y = torch.randn(2, 4, 3, 3)
    assert not fused._kernels_apply(y, None, None)
    out = fused.act_group_norm(y, 2, None, None, 1e-5, "silu", {})
    torch.testing.assert_close(out, F.group_norm(F.silu(y), 2, None, None, 1e-5), rtol=0, atol=0)


def test_fused_module_on_cpu_matches_sequential():
    torch.manual_seed(0)
    seq = nn.Sequential(nn.ConvTranspose2d(3, 8, 3, stride=2, bias=True), nn.GELU(approximate="tanh"), nn.GroupNorm(4, 8))
    with torch.no_grad():
        for p in seq.parameters():
            p.copy_(torch.randn_like(p))
    seq = seq.double()
    fused_module = tconv.ConvTransposeActGroupNorm2d.fuse(seq[0], seq[1], seq[2])
    x = torch.randn(2, 3, 5, 4, dtype=torch.float64)
    torch.testing.assert_close(fused_module(x), seq(x), rtol=1e-12, atol=1e-12)


# ---- the torch.library ops (torch >= 2.4): schemas, fake kernels, autograd, torch.compile ---------
needs_library = pytest.mark.skipif(not tconv._ops.USE_TORCH_LIBRARY, reason="torch.library custom-op API unavailable")
OP_CASES = [  # (shape, groups, affine, activation name, arg0, arg1, channels_last)
    ((2, 6, 5, 7), 3, True, "relu", 0.0, 0.0, False),
    ((2, 6, 5, 7), 2, False, "leaky_relu", 0.2, 0.0, True),
    ((1, 8, 3, 4, 5), 4, True, "gelu_tanh", 0.0, 0.0, True),
    ((3, 4, 2, 3, 4), 1, True, "hardtanh", -0.5, 0.75, False),
]


def _op_inputs(shape, groups, affine, channels_last, dtype=torch.float64, seed=0):
    y = _input(shape, seed).to(dtype)
    if channels_last:
        y = y.contiguous(memory_format=torch.channels_last if y.dim() == 4 else torch.channels_last_3d)
    g = torch.Generator().manual_seed(seed + 1)
    weight = (torch.rand(shape[1], generator=g, dtype=dtype) + 0.5) if affine else None
    bias = torch.randn(shape[1], generator=g, dtype=dtype) if affine else None
    return y, weight, bias


@needs_library
@pytest.mark.parametrize("case", OP_CASES, ids=[f"op{i}" for i in range(len(OP_CASES))])
def test_act_group_norm_op_passes_opcheck(case):
    shape, groups, affine, name, arg0, arg1, channels_last = case
    y, weight, bias = _op_inputs(shape, groups, affine, channels_last)
    y.requires_grad_()
    for p in (weight, bias):
        if p is not None:
            p.requires_grad_()
    torch.library.opcheck(torch.ops.tconv.act_group_norm.default, (y, weight, bias, groups, 1e-5, name, arg0, arg1))


@needs_library
@pytest.mark.parametrize("case", OP_CASES, ids=[f"op{i}" for i in range(len(OP_CASES))])
def test_act_group_norm_op_matches_torch_autograd(case):
    """Output and every gradient of the op (CPU implementation = the kernels' steps) against torch's
    activation + group_norm in float64; the output keeps y's memory format."""
    shape, groups, affine, name, arg0, arg1, channels_last = case
    y, weight, bias = _op_inputs(shape, groups, affine, channels_last)
    kind, args = fused._activation_from_name(name, arg0, arg1)
    leaves = [t.detach().clone().requires_grad_() for t in (y, weight, bias) if t is not None]
    ref_leaves = [t.detach().clone().requires_grad_() for t in (y, weight, bias) if t is not None]
    z = torch.ops.tconv.act_group_norm(leaves[0], *(leaves[1:] if affine else (None, None)), groups, 1e-5,
                                       name, arg0, arg1)[0]
    z_ref = _torch_chain(ref_leaves[0], groups, *(ref_leaves[1:] if affine else (None, None)), 1e-5, kind, args)
    torch.testing.assert_close(z, z_ref, atol=1e-10, rtol=1e-10)
    assert z.is_contiguous(memory_format=fused._memory_format(y, channels_last))
    grad = torch.randn_like(z_ref)
    got = torch.autograd.grad(z, leaves, grad)
    want = torch.autograd.grad(z_ref, ref_leaves, grad)
    for g_got, g_want in zip(got, want):  # the op keeps mean/rstd in fp32 (as the kernels do): ~1e-8
        torch.testing.assert_close(g_got, g_want, atol=1e-6, rtol=1e-6)


@needs_library
def test_act_group_norm_op_compiles_without_graph_break():
    y, weight, bias = _op_inputs((2, 6, 5, 7), 3, True, False, dtype=torch.float32)

    def block(y, weight, bias):
        return torch.ops.tconv.act_group_norm(y, weight, bias, 3, 1e-5, "silu", 0.0, 0.0)[0] * 2.0

    compiled = torch.compile(block, fullgraph=True, backend="aot_eager")
    torch.testing.assert_close(compiled(y, weight, bias), block(y, weight, bias))


@needs_library
def test_fused_ops_are_listed_by_info():
    assert {"tconv::act_group_norm", "tconv::act_group_norm_backward"} <= set(tconv._ops.registered_ops())


def _conv_block_inputs(channels_last, affine, bias, dtype=torch.float64):
    g = torch.Generator().manual_seed(5)
    x = torch.randn(2, 4, 3, 4, 5, generator=g, dtype=dtype)
    if channels_last:
        x = x.contiguous(memory_format=torch.channels_last_3d)
    w = torch.randn(4, 6, 3, 2, 3, generator=g, dtype=dtype) * 0.5
    b = torch.randn(6, generator=g, dtype=dtype) if bias else None
    gamma = torch.rand(6, generator=g, dtype=dtype) + 0.5 if affine else None
    beta = torch.randn(6, generator=g, dtype=dtype) if affine else None
    return x, w, b, gamma, beta


CONV_BLOCK_ARGS = ([2, 1, 1], [1, 0, 1], [1, 0, 0], [1, 2, 1], 1, 3, 1e-5, "gelu_tanh", 0.0, 0.0)


@needs_library
@pytest.mark.parametrize("channels_last", [False, True])
@pytest.mark.parametrize("affine,bias", [(True, True), (False, False)])
def test_conv_transpose_act_group_norm_op_passes_opcheck(channels_last, affine, bias):
    inputs = [t.requires_grad_() if t is not None else None
              for t in _conv_block_inputs(channels_last, affine, bias)]
    torch.library.opcheck(torch.ops.tconv.conv_transpose_act_group_norm.default, (*inputs, *CONV_BLOCK_ARGS))


@pytest.mark.parametrize("channels_last", [False, True])
@pytest.mark.parametrize("affine,bias", [(True, True), (False, False)])
def test_conv_transpose_act_group_norm_matches_torch_autograd(channels_last, affine, bias):
    """The whole block as one op (the fused modules' CUDA path; its CPU implementation here, either registration
    path): output and the gradients of input, weight, bias, gamma and beta against torch's conv_transpose3d, GELU
    (tanh) and group_norm in float64."""
    leaves = [t.requires_grad_() if t is not None else None for t in _conv_block_inputs(channels_last, affine, bias)]
    ref = [t.detach().clone().requires_grad_() if t is not None else None for t in leaves]
    stride, padding, output_padding, dilation, groups, num_groups, eps = CONV_BLOCK_ARGS[:7]
    z = fused.conv_transpose_act_group_norm(leaves[0], leaves[1], leaves[2], stride, padding, output_padding,
                                            dilation, groups, num_groups, leaves[3], leaves[4], eps, "gelu",
                                            {"approximate": "tanh"})
    y_ref = F.conv_transpose3d(ref[0], ref[1], ref[2], stride, padding, output_padding, groups, dilation)
    z_ref = F.group_norm(F.gelu(y_ref, approximate="tanh"), num_groups, ref[3], ref[4], eps)
    torch.testing.assert_close(z, z_ref, atol=1e-10, rtol=1e-10)
    grad = torch.randn_like(z_ref)
    got = torch.autograd.grad(z, [t for t in leaves if t is not None], grad)
    want = torch.autograd.grad(z_ref, [t for t in ref if t is not None], grad)
    for g_got, g_want in zip(got, want):  # mean/rstd kept in fp32, as the kernels do
        torch.testing.assert_close(g_got, g_want, atol=1e-6, rtol=1e-6)


@needs_library
def test_conv_transpose_act_group_norm_op_is_listed():
    assert "tconv::conv_transpose_act_group_norm" in tconv._ops.registered_ops()


@needs_library
@pytest.mark.parametrize("op", ["conv_transpose_act_group_norm", "act_group_norm"])
def test_fused_ops_backward_makes_no_zero_gradients(op):
    """The fused ops' outputs besides z (the conv output y, mean, rstd) are not differentiable: their backward must not
    have autograd make zero gradients for them (y's would be a conv-output-sized fill every backward). Counts the
    zero-tensor factories directly under the op's backward node (the CPU implementation's own work sits deeper)."""
    x, w, b, gamma, beta = [t.requires_grad_() if t is not None else None
                            for t in _conv_block_inputs(False, True, True)]
    if op == "conv_transpose_act_group_norm":
        z = torch.ops.tconv.conv_transpose_act_group_norm(x, w, b, gamma, beta, *CONV_BLOCK_ARGS)[0]
    else:
        y = torch.randn(2, 6, 3, 4, 5, dtype=torch.float64, requires_grad=True)  # (gamma and beta: 6 channels)
        z = torch.ops.tconv.act_group_norm(y, gamma, beta, 2, 1e-5, "relu", 0.0, 0.0)[0]
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        z.backward(torch.randn_like(z))
    node = f"GeneratedBackwardFor_tconv_{op}_defaultBackward"
    made = [e.name for e in prof.events() if e.name in ("aten::zeros", "aten::zeros_like", "aten::full")
            and e.cpu_parent is not None and e.cpu_parent.name == node]
    assert any(e.name == node for e in prof.events()), sorted({e.name for e in prof.events()})[:20]
    assert made == [], made


# The store-statistics rule (fused.CONV_STORE_STATISTICS): None asks the conv's store for fp32 data only (run 554: the
# TF32 forward wins; run 555: bf16 loses); True and False override it for every data type.
@pytest.mark.parametrize("setting,expected", [
    (None, {torch.float32: True, torch.float16: False, torch.bfloat16: False}),
    (True, {torch.float32: True, torch.float16: True, torch.bfloat16: True}),
    (False, {torch.float32: False, torch.float16: False, torch.bfloat16: False}),
])
def test_store_statistics_rule(setting, expected, monkeypatch):
    monkeypatch.setattr(fused, "CONV_STORE_STATISTICS", setting)
    assert {dtype: fused._store_statistics_wanted(dtype) for dtype in expected} == expected


def test_store_statistics_switch_read_at_import():
    """TCONV_CONV_STORE_STATISTICS: 1 forces, 0 refuses, unset (or anything else) leaves the rule (None)."""
    import subprocess
    import sys
    code = "import tconv.fused as f; print(f.CONV_STORE_STATISTICS)"
    seen = {}
    for value in ("1", "0", "", "x"):
        env = dict(os.environ, TCONV_CONV_STORE_STATISTICS=value)
        seen[value] = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                     check=True).stdout.split()[-1]
    assert seen == {"1": "True", "0": "False", "": "None", "x": "None"}
