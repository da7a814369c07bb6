"""The identity behind the swapped grad_weight (swapped_grad_weight_params in csrc/conv_transpose_igemm.cu), in float64
on CPU with torch's own gradients: at stride 1 and groups 1, the weight gradient of a transposed convolution with
padding p equals that of the problem whose input is grad_output and whose grad_output is x (C_out -> C_in channels,
padding d (K - 1) - p, the same kernel and dilation), transposed in its two channel dimensions and flipped in every
tap dimension. The cases cover 1D-3D, asymmetric kernels, padding up to d (K - 1) and dilation."""
import pytest
import torch
import torch.nn.functional as F

TORCH_FN = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


def grad_weight(x, grad_output, kernel, padding, dilation):
    weight = torch.zeros(x.shape[1], grad_output.shape[1], *kernel, dtype=x.dtype, requires_grad=True)
    out = TORCH_FN[x.dim() - 2](x, weight, padding=padding, dilation=dilation)
    assert out.shape == grad_output.shape
    (grad,) = torch.autograd.grad(out, weight, grad_output)
    return grad


@pytest.mark.parametrize("c_in, c_out, spatial, kernel, padding, dilation", [
    (3, 5, [11], [4], [0], [1]),
    (4, 2, [5, 9], [3, 5], [1, 2], [2, 1]),       # padding 1 -> 3 swapped along the dilated H
    (6, 3, [4, 5, 7], [3, 3, 3], [0, 0, 0], [1, 1, 1]),  # fam07's and L2-61's form: padding 0 -> 2
    (2, 4, [3, 4, 6], [2, 3, 4], [1, 0, 3], [1, 1, 1]),  # W padding at its bound d (K - 1): 3 -> 0
])
def test_swapped_problem_gives_the_weight_gradient(c_in, c_out, spatial, kernel, padding, dilation):
    gen = torch.Generator().manual_seed(sum(spatial) + len(kernel))
    x = torch.randn(2, c_in, *spatial, dtype=torch.float64, generator=gen)
    out_size = [s + d * (k - 1) - 2 * p for s, k, p, d in zip(spatial, kernel, padding, dilation)]
    grad_output = torch.randn(2, c_out, *out_size, dtype=torch.float64, generator=gen)
    expected = grad_weight(x, grad_output, kernel, padding, dilation)
    swapped_padding = [d * (k - 1) - p for k, p, d in zip(kernel, padding, dilation)]
    swapped = grad_weight(grad_output, x, kernel, swapped_padding, dilation)
    dims = list(range(2, 2 + len(kernel)))
    torch.testing.assert_close(swapped.transpose(0, 1).flip(dims), expected, rtol=1e-12, atol=1e-12)
