"""tconv.optimize on the GPU: an optimized decoder block (fused ConvTranspose -> act -> GroupNorm)
matches the original model in exact fp32 (allclose 1e-4) and stays within 2x PyTorch's own error in
bf16, for the output and every gradient (skipped without CUDA)."""
import pytest
import torch
import torch.nn.functional as F
from torch import nn

import tconv
from conftest import cuda_ready

pytestmark = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU")


def _block(dims):
    conv = nn.ConvTranspose3d if dims == 3 else nn.ConvTranspose2d
    return nn.Sequential(conv(16, 32, 2, stride=2, bias=True), nn.SiLU(), nn.GroupNorm(8, 32))


def _run(model, x, grad):
    x = x.clone().requires_grad_()
    out = model(x)
    grads = torch.autograd.grad(out, [x] + list(model.parameters()), grad)
    return [out.detach()] + [g.detach() for g in grads]


@pytest.mark.parametrize("dims", [2, 3])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_optimized_block_matches(dims, dtype):
    torch.manual_seed(0)
    model = _block(dims).cuda()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn_like(p))
    optimized, report = tconv.optimize(model)
    assert len(report.fused) == 1
    shape = (2, 16) + (6,) * dims
    x = torch.rand(shape, device="cuda")
    grad = torch.randn((2, 32) + (12,) * dims, device="cuda")
    ref64 = _run(model.double(), x.double(), grad.double())
    model.float()
    old = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    try:
        ours = _run(optimized.to(dtype), x.to(dtype), grad.to(dtype))
        theirs = _run(model.to(dtype), x.to(dtype), grad.to(dtype))
    finally:
        torch.backends.cudnn.allow_tf32 = old
    for got, want, same in zip(ours, ref64, theirs):
        if dtype == torch.float32:
            scale = max(1.0, want.pow(2).mean().sqrt().item())
            torch.testing.assert_close(got.double(), want, atol=1e-4 * scale, rtol=1e-4)
        else:
            err = lambda t: ((t.double() - want).abs().max() / want.abs().max().clamp_min(1e-30)).item()
            assert err(got) <= 2 * err(same) + 4e-3


class _CallChains(nn.Module):
    """Chains torch.fx fuses: an activation written as a call, and ConvTranspose -> GroupNorm followed by one."""

    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose3d(16, 32, 2, stride=2, bias=True)
        self.norm = nn.GroupNorm(8, 32)
        self.up2 = nn.ConvTranspose3d(32, 16, 3, padding=1)
        self.norm2 = nn.GroupNorm(4, 16)

    def forward(self, x):
        y = self.norm(F.leaky_relu(self.up(x), 0.2))
        return F.silu(self.norm2(self.up2(y)))


def test_fx_fused_call_chains_match():
    """The chains tconv.optimize fuses through torch.fx (an F.leaky_relu call; conv -> GroupNorm, then F.silu) match
    the original model in exact fp32 (allclose 1e-4 against float64) for the output and every gradient."""
    torch.manual_seed(1)
    model = _CallChains().cuda()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn_like(p))
    optimized, report = tconv.optimize(model)
    assert sorted(name for name, _ in report.fused) == ["up", "up2"]
    x = torch.rand(2, 16, 4, 4, 4, device="cuda")
    grad = torch.randn(2, 16, 8, 8, 8, device="cuda")
    ref64 = _run(model.double(), x.double(), grad.double())
    model.float()
    old = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    try:
        ours = _run(optimized, x, grad)
    finally:
        torch.backends.cudnn.allow_tf32 = old
    for got, want in zip(ours, ref64):
        scale = max(1.0, want.pow(2).mean().sqrt().item())
        torch.testing.assert_close(got.double(), want, atol=1e-4 * scale, rtol=1e-4)
