"""The flat-K grad_weight reference (tconv/_flat_k.py) against torch's own gradient, in float64 on CPU: the wrap-free
flat shifts hold in 1D, 2D and 3D, for asymmetric kernels, odd sizes, kernel 1 and L2-61's k3 x 3 x 3; they do not
hold with padding, which `applies` refuses."""
import pytest
import torch
import torch.nn.functional as F

from tconv import _flat_k

TORCH_FN = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


def torch_grad_weight(x, weight, grad_output, padding=0):
    weight = weight.clone().requires_grad_()
    out = TORCH_FN[x.dim() - 2](x, weight, padding=padding)
    (grad,) = torch.autograd.grad(out, weight, grad_output)
    return grad


@pytest.mark.parametrize("batch, c_in, c_out, spatial, kernel", [
    (2, 3, 5, [11], [4]),
    (1, 4, 2, [5, 7], [3, 2]),
    (2, 2, 3, [4, 6, 5], [3, 3, 3]),     # L2-61's kernel on a small grid
    (1, 3, 2, [3, 4, 2], [2, 5, 3]),     # taps wider than the input along W
    (2, 2, 2, [4, 3, 5], [1, 1, 1]),
])
def test_flat_shifts_give_the_weight_gradient(batch, c_in, c_out, spatial, kernel):
    gen = torch.Generator().manual_seed(len(spatial) * 10 + kernel[-1])
    x = torch.randn(batch, c_in, *spatial, dtype=torch.float64, generator=gen)
    weight = torch.randn(c_in, c_out, *kernel, dtype=torch.float64, generator=gen)
    out_size = [s + k - 1 for s, k in zip(spatial, kernel)]
    grad_output = torch.randn(batch, c_out, *out_size, dtype=torch.float64, generator=gen)
    dims = len(spatial)
    assert _flat_k.applies([1] * dims, [0] * dims, [1] * dims, [0] * dims)
    expected = torch_grad_weight(x, weight, grad_output)
    torch.testing.assert_close(_flat_k.grad_weight(x, grad_output, kernel), expected, rtol=1e-12, atol=1e-12)


def test_offsets_and_embedding():
    assert _flat_k.flat_offsets([2, 3], [4, 5]) == [0, 1, 2, 5, 6, 7]
    x = torch.arange(6.0).reshape(1, 1, 2, 3)
    x_g = _flat_k.embed_input(x, [3, 5])
    assert x_g.shape == (1, 1, 3, 5) and torch.equal(x_g[0, 0, :2, :3], x[0, 0]) and x_g.sum() == x.sum()


def test_applies_only_at_unit_stride_and_dilation_without_padding():
    """With padding, a wrapped flat position lands on x instead of the zeros (W_out - j < W_in for some j < kW)."""
    assert not _flat_k.applies([1, 1], [1, 1], [1, 1], [0, 0])
    assert not _flat_k.applies([2], [0], [1], [0]) and not _flat_k.applies([1], [0], [2], [0])
    assert _flat_k.applies([1, 1, 1], [0, 0, 0], [1, 1, 1], [0, 0, 0])
