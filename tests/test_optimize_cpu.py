"""tconv.optimize on CPU: module replacement, shared parameters, state_dict round trip, numerics."""
import torch
from torch import nn

import tconv


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Sequential(nn.ConvTranspose3d(4, 6, 2, stride=2), nn.ReLU(), nn.GroupNorm(2, 6))
        self.head = nn.ConvTranspose1d(3, 2, 3, padding=1)
        self.plain = nn.Linear(3, 3)

    def forward(self, x, y):
        return self.up(x), self.head(y)


class CustomConvT(nn.ConvTranspose2d):
    def forward(self, x):
        return super().forward(x) * 2


def test_optimize_replaces_and_keeps_state_dict():
    torch.manual_seed(0)
    model = Decoder()
    original_state = {k: v.clone() for k, v in model.state_dict().items()}
    optimized, report = tconv.optimize(model)
    assert isinstance(optimized.up[0], tconv.ConvTranspose3d) and isinstance(optimized.head, tconv.ConvTranspose1d)
    assert type(model.up[0]) is nn.ConvTranspose3d, "inplace=False must leave the original model alone"
    assert [name for name, _ in report.replaced] == ["up.0", "head"]
    assert list(optimized.state_dict()) == list(original_state)
    for key, value in optimized.state_dict().items():
        assert torch.equal(value, original_state[key])
    model.load_state_dict(optimized.state_dict())
    optimized.load_state_dict(model.state_dict())
    x, y = torch.rand(2, 4, 3, 3, 3), torch.rand(2, 3, 7)
    for got, want in zip(optimized(x, y), model(x, y)):
        torch.testing.assert_close(got, want)


def test_optimize_inplace_shares_parameters_and_reports_skips():
    model = nn.Sequential(nn.ConvTranspose2d(2, 2, 3), CustomConvT(2, 2, 3), tconv.ConvTranspose2d(2, 2, 1))
    weight = model[0].weight
    optimized, report = tconv.optimize(model, inplace=True)
    assert optimized is model and model[0].weight is weight
    assert isinstance(model[0], tconv.ConvTranspose2d)
    assert type(model[1]) is CustomConvT
    reasons = dict(report.skipped)
    assert "subclasses" in reasons["1"] and "already" in reasons["2"]
    assert "replaced 1" in str(report)


def test_optimize_root_module():
    conv = nn.ConvTranspose2d(2, 3, 3, stride=2)
    optimized, report = tconv.optimize(conv)
    assert isinstance(optimized, tconv.ConvTranspose2d) and report.replaced[0][0] == "<root>"
    x = torch.rand(1, 2, 4, 4)
    torch.testing.assert_close(optimized(x), conv(x))
