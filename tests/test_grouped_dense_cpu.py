"""tconv/_grouped_dense.py on the CPU: the block-diagonal weight makes the dense call the grouped one (output and
grad_input in float64, against PyTorch's grouped call), its diagonal blocks are the grouped grad_weight, and the
development rule takes what it says."""
import pytest
import torch
import torch.nn.functional as F

from tconv._grouped_dense import (DENSE_MAX_GROUP_CHANNELS, block_diagonal_weight, dense_grad_input_taken,
                                  diagonal_blocks)

CONV = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
# dims, batch, c_in, c_out, groups, kernel, stride, padding, output_padding, dilation, spatial
CASES = [
    (3, 2, 32, 32, 4, (3, 3, 3), (2, 2, 2), (1, 1, 1), (0, 0, 0), (1, 1, 1), (3, 4, 5)),      # L1-73-like
    (2, 2, 32, 64, 4, (3, 5), (2, 3), (1, 2), (0, 0), (2, 1), (5, 6)),                         # fam09-like
    (3, 1, 32, 32, 4, (3, 5, 7), (2, 2, 2), (1, 2, 3), (1, 1, 1), (1, 1, 1), (2, 3, 4)),      # L1-72-like
    (1, 3, 6, 9, 3, (4,), (3,), (1,), (2,), (2,), (7,)),                                        # uneven sides
    (2, 1, 8, 8, 1, (3, 3), (1, 1), (1, 1), (0, 0), (1, 1), (4, 4)),                           # one group
]


@pytest.mark.parametrize("case", CASES, ids=[f"c{i}" for i in range(len(CASES))])
def test_dense_call_on_the_block_diagonal_weight_is_the_grouped_call(case):
    dims, batch, c_in, c_out, groups, kernel, stride, padding, output_padding, dilation, spatial = case
    g = torch.Generator().manual_seed(len(spatial) * 100 + c_out)
    x = torch.randn((batch, c_in) + spatial, dtype=torch.float64, generator=g, requires_grad=True)
    w = torch.randn((c_in, c_out // groups) + kernel, dtype=torch.float64, generator=g, requires_grad=True)
    conv = CONV[dims]
    y = conv(x, w, None, stride, padding, output_padding, groups, dilation)
    dy = torch.randn(y.shape, dtype=torch.float64, generator=g)
    gx, gw = torch.autograd.grad(y, (x, w), dy)

    dense = block_diagonal_weight(w.detach(), groups).requires_grad_(True)
    assert dense.shape == (c_in, c_out) + kernel and dense.is_contiguous()
    x2 = x.detach().clone().requires_grad_(True)
    y2 = conv(x2, dense, None, stride, padding, output_padding, 1, dilation)
    gx2, gw2 = torch.autograd.grad(y2, (x2, dense), dy)
    torch.testing.assert_close(y2, y, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(gx2, gx, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(diagonal_blocks(gw2, groups), gw, rtol=1e-12, atol=1e-12)


def test_block_diagonal_weight_layout():
    """Group g's block at rows g * C_in/G.., columns g * C_out/G..; zeros elsewhere; a non-contiguous weight too."""
    groups, c_in_g, c_out_g = 3, 2, 4
    w = torch.arange(groups * c_in_g * c_out_g * 2 * 3, dtype=torch.float32).reshape(groups * c_in_g, c_out_g, 2, 3)
    w = w.contiguous(memory_format=torch.channels_last)
    dense = block_diagonal_weight(w, groups)
    for gi in range(groups):
        for go in range(groups):
            block = dense[gi * c_in_g:(gi + 1) * c_in_g, go * c_out_g:(go + 1) * c_out_g]
            if gi == go:
                assert torch.equal(block, w[gi * c_in_g:(gi + 1) * c_in_g])
            else:
                assert not block.any()
    assert torch.equal(diagonal_blocks(dense, groups), w)


def test_block_diagonal_errors():
    with pytest.raises(ValueError, match="groups"):
        block_diagonal_weight(torch.zeros(6, 2, 3), 4)
    with pytest.raises(ValueError, match="groups"):
        diagonal_blocks(torch.zeros(8, 6, 3), 4)


def test_dense_grad_input_rule():
    def taken(dtype, shape, groups):
        return dense_grad_input_taken(dtype, shape, groups, enabled=True)

    assert taken(torch.bfloat16, (32, 8, 3, 3, 3), 4) and taken(torch.float16, (32, 16, 3, 5), 4)
    assert not dense_grad_input_taken(torch.bfloat16, (32, 8, 3, 3, 3), 4, enabled=False)
    assert not taken(torch.float32, (32, 8, 3, 3, 3), 4)  # TF32: dense lost every shape measured (run 519)
    assert not taken(torch.bfloat16, (32, 32, 3, 3), 1)
    wide = DENSE_MAX_GROUP_CHANNELS + 1
    assert not taken(torch.bfloat16, (2 * wide, 8, 3), 2) and not taken(torch.bfloat16, (32, wide, 3), 2)
