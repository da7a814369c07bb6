"""Exact fp32 as one TF32 GEMM over three times the K (tconv/_exact_split.py), on the CPU: the split's values and
the layouts of the tripled operands, whose float64 GEMMs must give the transposed convolution's passes."""
import pytest
import torch
import torch.nn.functional as F

from tconv import _exact_split

TORCH_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
TORCH_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
CHANNELS_LAST = {4: torch.channels_last, 5: torch.channels_last_3d}


def test_split_values():
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(4096, generator=gen) * torch.exp(torch.randn(4096, generator=gen) * 20)
    special = torch.tensor([0.0, -0.0, float("inf"), -float("inf"), float("nan"), torch.finfo(torch.float32).max,
                            -torch.finfo(torch.float32).max, torch.finfo(torch.float32).tiny / 3, 1 + 2 ** -11,
                            1 + 3 * 2 ** -12])
    x = torch.cat([x, special])
    parts = _exact_split.split_reference(x.view(1, -1), _exact_split.SMALL_SECOND)[0]
    big, small = parts[0], parts[1]
    assert torch.equal(parts[2].view(torch.int32), big.view(torch.int32))
    assert ((big.view(torch.int32) & ((1 << 13) - 1)) == 0).all(), "big parts carry 10 mantissa bits at most"
    finite = torch.isfinite(x)
    assert torch.equal((big + small)[finite], x[finite]), "big + small is the value exactly"
    # half a TF32 ulp of normal values (rounded to nearest); a whole one where the largest floats truncate
    normal = finite & (x.abs() >= torch.finfo(torch.float32).tiny)
    rounded = normal & (x.abs() < torch.finfo(torch.float32).max / 2)
    assert (small[rounded].abs() <= x[rounded].abs() * 2 ** -11).all()
    assert (small[normal].abs() <= x[normal].abs() * 2 ** -10).all()
    assert torch.isfinite(big[finite]).all(), "the largest floats must not round to infinity"
    assert torch.equal(big[~finite].isnan(), x[~finite].isnan()) and (small[~finite] == 0).all()
    # round to nearest, ties away from zero
    assert big[-2].item() == 1 + 2 ** -10 and big[-1].item() == 1 + 2 ** -10


def test_taken_only_where_it_applies(monkeypatch):
    monkeypatch.setattr(_exact_split, "EXACT_SPLIT", True)
    x = torch.randn(2, 3)
    assert not _exact_split.taken(x, tf32=False), "CPU tensors keep torch's own fp32"
    monkeypatch.setattr(_exact_split, "EXACT_SPLIT", False)
    assert not _exact_split.taken(x, tf32=False)
    with _exact_split.tf32_inside():
        assert _exact_split.inside()
        with _exact_split.tf32_inside():
            assert _exact_split.inside()
        assert _exact_split.inside()
    assert not _exact_split.inside()


def _three_terms(fn, a, b):
    """fn(a_big, b_big) + fn(a_small, b_big) + fn(a_big, b_small) in float64, the split's parts taken from the
    reference."""
    def parts(t):
        p = _exact_split.split_reference(t.reshape(1, -1), 0b010)[0]
        return p[0].view(t.shape).double(), p[1].view(t.shape).double()
    (ab, as_), (bb, bs) = parts(a), parts(b)
    return fn(ab, bb) + fn(as_, bb) + fn(ab, bs)


CASES = [
    # dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial
    (1, 2, 4, 6, 2, [3], [2], [1], [1], [1], [7]),
    (2, 3, 6, 4, 1, [3, 2], [1, 2], [1, 0], [0, 1], [2, 1], [4, 5]),
    (2, 2, 6, 9, 3, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], [3, 4]),
    (3, 2, 4, 8, 2, [3, 3, 2], [1, 2, 1], [1, 0, 0], [0, 1, 0], [1, 1, 2], [3, 4, 3]),
]


@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
@pytest.mark.parametrize("case", CASES, ids=[f"e{i}" for i in range(len(CASES))])
def test_tripled_operands_make_each_pass(case, layout):
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial = case
    gen = torch.Generator().manual_seed(dims * 100 + cin)
    x = torch.randn(batch, cin, *spatial, generator=gen)
    w = torch.randn(cin, cout // groups, *kernel, generator=gen)
    if layout == "channels_last":
        if x.dim() not in CHANNELS_LAST:
            pytest.skip("1D tensors have one layout")
        x = x.contiguous(memory_format=CHANNELS_LAST[x.dim()])
    conv_t = lambda a, b: TORCH_T[dims](a, b, None, stride, padding, output_padding, groups, dilation)
    y64 = conv_t(x.double(), w.double())
    go = torch.randn(y64.shape, generator=gen)
    if layout == "channels_last":
        go = go.contiguous(memory_format=CHANNELS_LAST[go.dim()])

    # forward: K = each group's input channels
    x3 = _exact_split.channels(x, groups, _exact_split.SMALL_SECOND)
    w3 = _exact_split.weight(w, groups, 0, _exact_split.SMALL_THIRD)
    assert x3.shape[1] == 3 * cin and w3.shape[0] == 3 * cin
    if layout == "channels_last":
        assert x3.is_contiguous(memory_format=CHANNELS_LAST[x.dim()])
    got = conv_t(x3.double(), w3.double())
    torch.testing.assert_close(got, _three_terms(conv_t, x, w), rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(got, y64, rtol=1e-5, atol=1e-5)

    # grad_input: a convolution of grad_output by the weight, K = each group's output channels
    grad_in = lambda a, b: TORCH_CONV[dims](a, b, None, stride, padding, dilation, groups)
    go3 = _exact_split.channels(go, groups, _exact_split.SMALL_SECOND)
    w3 = _exact_split.weight(w, groups, 1, _exact_split.SMALL_THIRD)
    got = grad_in(go3.double(), w3.double())
    torch.testing.assert_close(got, _three_terms(grad_in, go, w), rtol=1e-12, atol=1e-12)
    x64 = x.double().requires_grad_()
    gi64, = torch.autograd.grad(conv_t(x64, w.double()), [x64], go.double())
    torch.testing.assert_close(got, gi64, rtol=1e-5, atol=1e-5)

    # grad_weight: K = batch x positions, the operands tripled along the batch
    def grad_weight(a, g):
        w64 = w.double().requires_grad_()
        return torch.autograd.grad(conv_t(a, w64), [w64], g)[0]
    x3 = _exact_split.batch(x, _exact_split.SMALL_SECOND)
    go3 = _exact_split.batch(go, _exact_split.SMALL_THIRD)
    assert x3.shape[0] == 3 * batch
    got = grad_weight(x3.double(), go3.double())
    torch.testing.assert_close(got, _three_terms(grad_weight, x, go), rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(got, grad_weight(x.double(), go.double()), rtol=1e-5, atol=1e-5)
