"""tconv.optimize and the fused ConvTranspose -> activation -> GroupNorm modules, on CPU: module
replacement, fusion in Sequentials and through torch.fx, shared parameters, state_dict round
trips, refusals with reasons, numerics (forward and every gradient) against the original model."""
import copy

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import tconv


class Decoder(nn.Module):
    """A chain inside a Sequential, a lone conv, and a layer tconv leaves alone."""

    def __init__(self):
        super().__init__()
        self.up = nn.Sequential(nn.ConvTranspose3d(4, 6, 2, stride=2), nn.ReLU(), nn.GroupNorm(2, 6))
        self.head = nn.ConvTranspose1d(3, 2, 3, padding=1)
        self.plain = nn.Linear(3, 3)

    def forward(self, x, y):
        return self.up(x), self.head(y)


class Block(nn.Module):
    """A chain written as attributes (fused through torch.fx)."""

    def __init__(self, act=None):
        super().__init__()
        self.conv = nn.ConvTranspose2d(4, 8, 3, stride=2, padding=1, output_padding=1, bias=True)
        self.act = act if act is not None else nn.SiLU()
        self.norm = nn.GroupNorm(4, 8)
        self.tail = nn.ConvTranspose2d(8, 2, 1)

    def forward(self, x):
        return self.tail(self.norm(self.act(self.conv(x))))


class DataDependent(Block):
    def forward(self, x):
        if x.sum() > 0:  # not traceable by torch.fx
            return self.norm(self.act(self.conv(x)))
        return x


class CustomConvT(nn.ConvTranspose2d):
    def forward(self, x):
        return super().forward(x) * 2


def _perturb(model):
    """GroupNorm's default affine parameters (1, 0) would hide a missing affine; randomise all."""
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn_like(p))
    return model


def _check_same(model_a, model_b, *inputs):
    a_inputs = [t.clone().requires_grad_() for t in inputs]
    b_inputs = [t.clone().requires_grad_() for t in inputs]
    out_a, out_b = model_a(*a_inputs), model_b(*b_inputs)
    out_a = out_a if isinstance(out_a, tuple) else (out_a,)
    out_b = out_b if isinstance(out_b, tuple) else (out_b,)
    for oa, ob in zip(out_a, out_b):
        torch.testing.assert_close(oa, ob)
    grads = [torch.randn_like(o) for o in out_a]
    params_a = list(model_a.parameters()) + a_inputs
    params_b = list(model_b.parameters()) + b_inputs
    for ga, gb in zip(torch.autograd.grad(out_a, params_a, grads, allow_unused=True),
                      torch.autograd.grad(out_b, params_b, grads, allow_unused=True)):
        if ga is None or gb is None:
            assert ga is None and gb is None
        else:
            torch.testing.assert_close(ga, gb)


def test_sequential_chain_fused_and_state_dict_unchanged():
    torch.manual_seed(0)
    model = _perturb(Decoder())
    original_state = {k: v.clone() for k, v in model.state_dict().items()}
    optimized, report = tconv.optimize(model)
    assert isinstance(optimized.up[0], tconv.ConvTransposeActGroupNorm3d)
    assert isinstance(optimized.up[1], nn.Identity)
    assert isinstance(optimized.head, tconv.ConvTranspose1d)
    assert type(model.up[0]) is nn.ConvTranspose3d, "inplace=False must leave the original model alone"
    assert [name for name, _ in report.fused] == ["up.0"] and [n for n, _ in report.replaced] == ["head"]
    assert list(optimized.state_dict()) == list(original_state)
    for key, value in optimized.state_dict().items():
        assert torch.equal(value, original_state[key])
    model.load_state_dict(optimized.state_dict(), strict=True)
    optimized.load_state_dict(model.state_dict(), strict=True)
    _check_same(optimized, model, torch.rand(2, 4, 3, 3, 3), torch.rand(2, 3, 7))


def test_fx_chain_fused_and_parameters_shared():
    torch.manual_seed(0)
    model = _perturb(Block())
    optimized, report = tconv.optimize(model, inplace=True)
    assert isinstance(optimized, torch.fx.GraphModule)
    assert isinstance(optimized.conv, tconv.ConvTransposeActGroupNorm2d)
    assert isinstance(optimized.tail, tconv.ConvTranspose2d)
    assert optimized.conv.weight is model.conv.weight and optimized.norm.weight is model.norm.weight
    assert [name for name, _ in report.fused] == ["conv"]
    assert list(optimized.state_dict()) == list(model.state_dict())
    reference = _perturb(Block())
    reference.load_state_dict(optimized.state_dict())
    _check_same(optimized, reference, torch.randn(2, 4, 5, 6))


@pytest.mark.parametrize("act", [nn.ReLU(), nn.LeakyReLU(0.2), nn.GELU(), nn.GELU(approximate="tanh"), nn.SiLU(),
                                 nn.Hardswish(), nn.Tanh(), nn.Sigmoid(), nn.Hardtanh(-0.5, 0.7), nn.ReLU6()],
                         ids=lambda a: repr(a))
def test_every_fusable_activation(act):
    torch.manual_seed(1)
    model = _perturb(Block(act))
    fused = tconv.ConvTransposeActGroupNorm2d.fuse(model.conv, model.act, model.norm)
    x = torch.randn(2, 4, 5, 6)
    torch.testing.assert_close(fused(x), model.norm(model.act(model.conv(x))))
    assert "group_norm" in repr(fused)


class CallBlock(nn.Module):
    """A chain whose activation is a function or method call, as model code often writes it."""

    def __init__(self, call):
        super().__init__()
        self.conv = nn.ConvTranspose2d(4, 8, 3, stride=2, padding=1, bias=True)
        self.norm = nn.GroupNorm(4, 8)
        self.call = call

    def forward(self, x):
        return self.norm(self.call(self.conv(x)))


ACTIVATION_CALLS = [
    (lambda y: F.relu(y), "relu", {}),
    (lambda y: torch.relu(y), "relu", {}),
    (lambda y: F.relu(y, inplace=True), "relu", {}),
    (lambda y: y.relu(), "relu", {}),
    (lambda y: F.leaky_relu(y, 0.2), "leaky_relu", {"negative_slope": 0.2}),
    (lambda y: F.leaky_relu(y, negative_slope=0.05), "leaky_relu", {"negative_slope": 0.05}),
    (lambda y: F.leaky_relu(y), "leaky_relu", {"negative_slope": 0.01}),
    (lambda y: F.gelu(y), "gelu", {"approximate": "none"}),
    (lambda y: F.gelu(y, approximate="tanh"), "gelu", {"approximate": "tanh"}),
    (lambda y: F.silu(y), "silu", {}),
    (lambda y: F.hardswish(y), "hardswish", {}),
    (lambda y: torch.tanh(y), "tanh", {}),
    (lambda y: y.sigmoid(), "sigmoid", {}),
    (lambda y: torch.sigmoid(y), "sigmoid", {}),
    (lambda y: F.hardtanh(y, -0.5, 0.7), "hardtanh", {"min_val": -0.5, "max_val": 0.7}),
    (lambda y: F.relu6(y), "hardtanh", {"min_val": 0.0, "max_val": 6.0}),
]


@pytest.mark.parametrize("call,kind,args", ACTIVATION_CALLS, ids=[f"c{i}" for i in range(len(ACTIVATION_CALLS))])
def test_fx_chain_with_activation_call_fused(call, kind, args):
    torch.manual_seed(2)
    model = _perturb(CallBlock(call))
    optimized, report = tconv.optimize(model)
    assert isinstance(optimized.conv, tconv.ConvTransposeActGroupNorm2d), str(report)
    assert [name for name, _ in report.fused] == ["conv"] and not report.skipped
    assert optimized.conv.activation_kind == kind and optimized.conv.activation_args == args
    assert list(optimized.state_dict()) == list(model.state_dict())
    reference = _perturb(CallBlock(call))
    reference.load_state_dict(optimized.state_dict())
    model.load_state_dict(optimized.state_dict())
    _check_same(optimized, reference, torch.randn(2, 4, 5, 6))


@pytest.mark.parametrize("call,why", [
    (lambda y, slope=torch.tensor(0.2): F.leaky_relu(y, slope), "computed in the graph"),  # a traced constant
    (lambda y: torch.abs(y), "abs is not a fusable activation"),
    (lambda y: F.softplus(y), "softplus is not a fusable activation"),
], ids=["computed_argument", "abs", "softplus"])
def test_fx_activation_call_refusals_are_reported(call, why):
    torch.manual_seed(3)
    model = _perturb(CallBlock(call))
    optimized, report = tconv.optimize(model)
    assert not report.fused and isinstance(optimized.conv, tconv.ConvTranspose2d)
    assert any(name == "conv" and why in reason for name, reason in report.skipped), str(report)
    _check_same(optimized, model, torch.randn(2, 4, 5, 6))


class MixedNet(nn.Module):
    """A Sequential chain, a chain written with a call inside a nested block, a submodule forward never calls and a
    parameter read directly: the GraphModule holds only what its graph calls, the rest must come back."""

    def __init__(self):
        super().__init__()
        self.block = CallBlock(lambda y: F.relu(y))
        self.block.unused = nn.Linear(3, 3)
        self.block.register_buffer("steps", torch.zeros(()))
        self.block.register_buffer("scratch", torch.zeros(2), persistent=False)
        self.offset = nn.Parameter(torch.zeros(2))  # read by nothing
        self.seq = nn.Sequential(nn.ConvTranspose2d(8, 6, 3, padding=1), nn.SiLU(), nn.GroupNorm(3, 6))
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        return self.seq(self.block(x)) * self.scale


def test_fx_and_sequential_fusion_keep_every_state_dict_key():
    torch.manual_seed(4)
    model = _perturb(MixedNet())
    optimized, report = tconv.optimize(model)
    assert sorted(name for name, _ in report.fused) == ["block.conv", "seq.0"]
    assert isinstance(optimized, torch.fx.GraphModule)
    assert list(optimized.state_dict()) == list(model.state_dict())
    assert [n for n, _ in optimized.named_parameters()] == [n for n, _ in model.named_parameters()]
    assert isinstance(optimized.block.unused, nn.Linear) and isinstance(optimized.get_submodule("seq.2"), nn.GroupNorm)
    reference = _perturb(MixedNet())
    reference.load_state_dict(optimized.state_dict(), strict=True)
    optimized.load_state_dict(reference.state_dict(), strict=True)
    _check_same(optimized, reference, torch.randn(2, 4, 5, 6))


class NormFirstBlock(nn.Module):
    """ConvTranspose -> GroupNorm -> activation (the order of many decoders), through torch.fx."""

    def __init__(self):
        super().__init__()
        self.conv = nn.ConvTranspose3d(4, 6, 2, stride=2)
        self.norm = nn.GroupNorm(3, 6)

    def forward(self, x):
        return F.silu(self.norm(self.conv(x)))


def test_conv_then_group_norm_fused_with_identity_activation():
    torch.manual_seed(5)
    seq = _perturb(nn.Sequential(nn.ConvTranspose2d(4, 6, 3, stride=2), nn.GroupNorm(2, 6), nn.SiLU()))
    optimized, report = tconv.optimize(seq)
    assert isinstance(optimized[0], tconv.ConvTransposeActGroupNorm2d) and optimized[0].activation_kind == "identity"
    assert isinstance(optimized[1], nn.GroupNorm) and isinstance(optimized[2], nn.SiLU)
    assert [name for name, _ in report.fused] == ["0"]
    assert list(optimized.state_dict()) == list(seq.state_dict())
    _check_same(optimized, seq, torch.randn(2, 4, 5, 6))

    block = _perturb(NormFirstBlock())
    optimized, report = tconv.optimize(block)
    assert isinstance(optimized.conv, tconv.ConvTransposeActGroupNorm3d) and optimized.conv.activation_kind == "identity"
    assert [name for name, _ in report.fused] == ["conv"]
    assert list(optimized.state_dict()) == list(block.state_dict())
    _check_same(optimized, block, torch.randn(2, 4, 3, 4, 5))


def test_refusals_are_reported():
    model = nn.Sequential(nn.ConvTranspose2d(2, 4, 3), nn.PReLU(), nn.GroupNorm(2, 4),
                          nn.ConvTranspose2d(4, 6, 3), nn.ReLU(), nn.GroupNorm(2, 4))
    optimized, report = tconv.optimize(model)
    reasons = dict(report.skipped)
    assert "PReLU" in reasons["0"] and "4 channels" in reasons["3"] and not report.fused
    assert [n for n, _ in report.replaced] == ["0", "3"]
    with pytest.raises(ValueError, match="cannot fuse"):
        tconv.ConvTransposeActGroupNorm2d.fuse(model[0], model[1], model[2])


def test_untraceable_model_still_gets_tconv_convs():
    torch.manual_seed(0)
    model = _perturb(DataDependent())
    optimized, report = tconv.optimize(model)
    assert isinstance(optimized.conv, tconv.ConvTranspose2d) and not report.fused
    assert any("torch.fx" in why for _, why in report.skipped)
    x = torch.rand(1, 4, 3, 3)
    torch.testing.assert_close(optimized(x), model(x))


def test_inplace_replacement_and_skips():
    model = nn.Sequential(nn.ConvTranspose2d(2, 2, 3), CustomConvT(2, 2, 3), tconv.ConvTranspose2d(2, 2, 1))
    weight = model[0].weight
    optimized, report = tconv.optimize(model, inplace=True)
    assert optimized is model and model[0].weight is weight
    assert isinstance(model[0], tconv.ConvTranspose2d) and type(model[1]) is CustomConvT
    assert "subclasses" in dict(report.skipped)["1"]
    assert "replaced 1" in str(report)


def test_root_module_and_deepcopy():
    conv = nn.ConvTranspose2d(2, 3, 3, stride=2)
    optimized, report = tconv.optimize(conv)
    assert isinstance(optimized, tconv.ConvTranspose2d) and report.replaced[0][0] == "<root>"
    x = torch.rand(1, 2, 4, 4)
    torch.testing.assert_close(optimized(x), conv(x))
    fused_model, _ = tconv.optimize(nn.Sequential(nn.ConvTranspose2d(2, 4, 3), nn.ReLU(), nn.GroupNorm(2, 4)))
    clone = copy.deepcopy(fused_model)
    assert clone[0]._norm is clone[2], "a copied fused module must follow its own GroupNorm"
