"""tconv/_grouped_dense.py on the CPU: the block-diagonal weight makes the dense call the grouped one (output and
grad_input in float64, against PyTorch's grouped call), its diagonal blocks are the grouped grad_weight, and the
rule's shape half takes what it says."""
import pytest
import torch
import torch.nn.functional as F

from tconv._grouped_dense import (DENSE_MAX_GROUP_CHANNELS, block_diagonal_weight, dense_grad_input_candidate,
                                  dense_weight_shape, diagonal_blocks)

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


def test_dense_grad_input_candidates():
    def candidate(dtype, shape, groups, channels_last=True):
        return dense_grad_input_candidate(dtype, shape, groups, channels_last, enabled=True)

    assert candidate(torch.bfloat16, (32, 8, 3, 3, 3), 4) and candidate(torch.float16, (32, 16, 3, 5), 4)
    assert not dense_grad_input_candidate(torch.bfloat16, (32, 8, 3, 3, 3), 4, True, enabled=False)
    assert not candidate(torch.float32, (32, 8, 3, 3, 3), 4)  # TF32: dense lost every shape measured (run 519)
    assert not candidate(torch.bfloat16, (32, 8, 3, 3, 3), 4, channels_last=False)  # contiguous: mixed (run 517)
    assert not candidate(torch.bfloat16, (32, 32, 3, 3), 1)
    wide = DENSE_MAX_GROUP_CHANNELS + 1
    assert not candidate(torch.bfloat16, (2 * wide, 8, 3), 2) and not candidate(torch.bfloat16, (32, wide, 3), 2)


def test_dense_weight_shape_is_the_block_diagonal_weights():
    w = torch.zeros(12, 2, 3, 5)
    assert dense_weight_shape(w.shape, 3) == tuple(block_diagonal_weight(w, 3).shape) == (12, 6, 3, 5)


@pytest.mark.parametrize("persistent, split, algorithm, taken", [
    (True, False, "auto", True),
    (False, False, "auto", False),  # fam09's dense grad_input is the mma.sync gather: grouped wins (run 517)
    (True, True, "auto", False),  # the persistence query speaks of the whole call, not of its phase split's
    (True, False, "igemm", False),  # a forced algorithm keeps the grouped call
])
def test_dense_grad_input_needs_a_persistent_dense_call(monkeypatch, persistent, split, algorithm, taken):
    """_ops' rule: a candidate by shape is taken where the dense call (groups 1, the block-diagonal weight's shape)
    runs whole on a persistent grid."""
    from tconv import _ops
    queried = []

    class Extension:
        @staticmethod
        def grad_input_persistent(grad_output, weight, grad_input, stride, padding, dilation, groups, tf32, name):
            queried.append((tuple(weight.shape), groups, name))
            return persistent

    monkeypatch.setattr(_ops._build, "load", lambda: Extension)
    monkeypatch.setattr(_ops, "_grad_input_split_taken", lambda *args: split)
    monkeypatch.setattr(_ops._grouped_dense, "DENSE_GRAD_INPUT", True)
    monkeypatch.setattr(_ops, "algorithm", algorithm)
    grad_output = torch.zeros(2, 32, 7, 9, 11, dtype=torch.bfloat16).contiguous(memory_format=torch.channels_last_3d)
    grad_input = torch.zeros(2, 32, 4, 5, 6, dtype=torch.bfloat16).contiguous(memory_format=torch.channels_last_3d)
    weight = torch.zeros(32, 8, 3, 3, 3, dtype=torch.bfloat16)
    args = ([2, 2, 2], [1, 1, 1], [1, 1, 1], 4)
    assert _ops._grad_input_dense_taken(grad_output, weight, grad_input, *args) == taken
    assert queried in ([], [((32, 32, 3, 3, 3), 1, "auto")])
    assert not _ops._grad_input_dense_taken(grad_output.contiguous(), weight, grad_input.contiguous(), *args)
