"""The rows grad_weight kernel over channels-last data (skipped without CUDA; its checks need sm_90a code on compute
capability 9.0).

TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST (read once per process: conv_transpose_igemm.cu, rows_channels_last_taken; on
by default since run 576 timed it, 0 off) gives TF32 calls whose x and grad_output hold their channels innermost the
warp-specialized rows kernel's channels-last form: the boxes land [position][channel], the rounders read the x box
across into the same B tile, and the A fragments step along the raw rows by their pitch. Checked here, in a fresh
process per value, on the rows kernel's 2D and 3D grids (DCGAN-like k4 s2 with two folded taps, k2 s2 with one,
partial C_in and C_out tiles, groups, H and D dilation, output padding, odd W sizes): under 1 the precision contract
of every gradient (channels-last x and grad_output, poisoned outputs), the form's kernel launched, and grad_weight
bit for bit equal to the contiguous tensors' on the W-contiguous rows kernel (the same B tiles, fragment values,
wgmmas and splits) wherever the contiguous tensors' rows start on 16 bytes (an odd W keeps those off the rows kernel:
the channels-last rows have no such limit); under 0, channels-last calls stay off the rows kernels.
"""
import re

import pytest
import torch

from conftest import cuda_ready, run_under_switch, wgmma_kernels_run

pytestmark = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU")

CODE = """
import os, sys, torch, tconv
import test_conv_transpose_gpu as t
from test_grad_weight_rows_3d_gpu import ROWS_3D_GRID
from conftest import poison_cuda_allocator
switched = os.environ['TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST'] != '0'
results = []
for i, case in enumerate(t.ROWS_GRID + ROWS_3D_GRID):
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias = case
    if switched:
        t.run_case(*case, mode='tf32', layout='channels_last', seed=70 + i, poison=poison_cuda_allocator,
                   algorithm='auto', grad_like_output=True)
    fmt = torch.channels_last if dims == 2 else torch.channels_last_3d
    gen = torch.Generator(device='cuda').manual_seed(170 + i)
    x = torch.randn(batch, cin, *spatial, device='cuda', generator=gen)
    w = torch.randn(cin, cout // groups, *kernel, device='cuda', generator=gen).requires_grad_()
    dy, row = None, []
    for layout in ('channels_last', 'contiguous'):
        xl = x.contiguous(memory_format=fmt) if layout == 'channels_last' else x
        with t.precision('tf32'), tconv._ops.use_algorithm('auto'), \\
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = t.TCONV_FN[dims](xl, w, None, stride, padding, output_padding, groups, dilation)
            if dy is None:
                dy = torch.randn(out.shape, device='cuda', generator=gen)
            dyl = dy.contiguous(memory_format=fmt) if layout == 'channels_last' else dy
            (gw,) = torch.autograd.grad(out, [w], dyl)
            torch.cuda.synchronize()
        row.append((gw.cpu(), t.grad_weight_kernel_names(prof)))
    # the contiguous tensors' TMA maps need each row to start on 16 bytes
    results.append(row + [x.shape[-1] % 4 == 0 and out.shape[-1] % 4 == 0])
torch.save(results, sys.argv[1])
"""
CHANNELS_LAST_FORM = re.compile(r"grad_weight_wgmma_rows_specialized_kernel<2, \d, \d, (true|\(bool\)1)>")


def test_grad_weight_rows_channels_last_under_switch(tmp_path):
    if not wgmma_kernels_run():
        pytest.skip("the rows kernel runs on sm_90a builds on compute capability 9.0")
    # run_case asserts the contract inside the switched process; a failure there fails the run (its stderr is shown)
    runs = run_under_switch(CODE, tmp_path, "TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST", values=("1", "0"))
    assert len(runs["1"]) == len(runs["0"]) == 8
    for i, ((cl_grad, cl_names), (grad, names), rows_aligned) in enumerate(runs["1"]):
        assert any(CHANNELS_LAST_FORM.search(n) for n in cl_names), (i, cl_names)
        assert not any(CHANNELS_LAST_FORM.search(n) for n in names), (i, names)
        assert any("rows_" in n for n in names) == rows_aligned, (i, rows_aligned, names)
        if rows_aligned:
            assert torch.equal(cl_grad, grad), (i, (cl_grad - grad).abs().max().item())
    for i, ((_, cl_names), (_, names), rows_aligned) in enumerate(runs["0"]):
        assert not any("rows_" in n for n in cl_names), (i, cl_names)
        assert any("rows_" in n for n in names) == rows_aligned, (i, rows_aligned, names)
