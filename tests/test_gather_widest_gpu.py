"""The 256-column plain wgmma gather tile on the GPU (skipped without CUDA).

By default the wgmma gather GEMMs (fp32 data in TF32 mode, fp16, bf16) with at least 256 columns (output channels
per group; input channels for grad_input; channels x stride under the W fold) run on `GatherGemmTile<256, 1, true>`
instead of the 128-column tiles (igemm_config.h, WgmmaWidestGatherTile: why and the measurements), unless the
128-column grid would fit in one wave of the GPU (conv_transpose_igemm.cu, gather_widest_fills).
`TCONV_GATHER_WIDEST` (development, read once per process): 0 keeps the 128-column tiles, 2 takes the 256-column one
whatever the grid. Checked here, with 2 against 0: that it gives the bits of the 128-column plain tile (the same
wgmmas per column in the same K order) on a DCGAN-like call (grad_input's spread rows, the forward's W fold over 640
columns: a partial column tile), the W-tap window, groups of 256 and a single stage, with and without the TMA forms
in the way, in all three dtypes; that it is what runs; when the test process runs under TCONV_GATHER_WIDEST=2, the
precision contract on the same shapes (poisoned outputs, both layouts, all three dtypes); and the default rule: a
one-wave grid keeps 128 columns, a larger one takes 256.
"""
import os

import pytest
import torch

from conftest import assert_bitwise_equal, cuda_ready, run_under_switch
from test_conv_transpose_gpu import run_case
from test_gather_specialized_gpu import hopper_wgmma

pytestmark = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU")

WIDEST_KERNEL = "GatherGemmTile<256, 1, true"  # demangled name
# dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
CASES = {
    # forward folded to 640 columns (2 full column tiles and a partial one); grad_input over 256 spread columns
    "dcgan_like": (2, 2, 256, 320, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [9, 11], True),
    # 27 taps x 2 channel chunks on the W-tap window, 256 columns
    "long_k_window": (3, 2, 64, 256, 1, [3, 3, 3], [1, 1, 1], [1, 1, 1], [0, 0, 0], [1, 1, 1], [6, 7, 9], True),
    # 256 columns per group both ways, two groups
    "grouped": (2, 2, 512, 512, 2, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [8, 12], False),
    # one tap and one 24-channel chunk: a single stage per tile
    "one_stage": (2, 1, 24, 256, 1, [1, 1], [1, 1], [0, 0], [0, 0], [1, 1], [9, 15], True),
}

CODE = """
import sys, torch, tconv
from test_gather_widest_gpu import CASES
from test_conv_transpose_gpu import TCONV_FN
torch.backends.cudnn.allow_tf32 = True
dtype = getattr(torch, sys.argv[2])
outs, counts = [], []
for name in sorted(CASES):
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias = CASES[name]
    g = torch.Generator(device="cuda").manual_seed(29)
    x = torch.randn(batch, cin, *spatial, device="cuda", generator=g).to(dtype).requires_grad_()
    w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=g).to(dtype)
    b = torch.randn(cout, device="cuda", generator=g).to(dtype) if bias else None
    with tconv._ops.use_algorithm("igemm"), \\
            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = TCONV_FN[dims](x, w, b, stride, padding, output_padding, groups, dilation)
        (gi,) = torch.autograd.grad(out, [x], torch.randn(out.shape, device="cuda", generator=g).to(dtype))
        torch.cuda.synchronize()
    outs += [out.detach().cpu(), gi.cpu()]
    counts.append(sum("WIDEST" in e.name for e in prof.events()))
torch.save([outs, counts], sys.argv[1])
""".replace("WIDEST", WIDEST_KERNEL)


@pytest.mark.parametrize("tma", ["0", "1"])
def test_widest_gather_agrees_bitwise(tmp_path, tma, monkeypatch):
    if not hopper_wgmma():
        pytest.skip("the wgmma tiles are built for sm_90a and run on compute capability 9.0")
    monkeypatch.setenv("TCONV_GATHER_TMA", tma)  # 0: the forwards too on the cp.async gather
    runs = run_under_switch(CODE, tmp_path, "TCONV_GATHER_WIDEST", values=("2", "0"), args=("float32",))
    check_widest_runs(runs, tma)


def check_widest_runs(runs, tma):
    (widest, widest_counts), (plain, plain_counts) = runs["2"], runs["0"]
    assert_bitwise_equal(widest, plain)
    assert not any(plain_counts), plain_counts
    # sorted(CASES): dcgan_like and grouped have >= 256 columns in the forward and grad_input, long_k_window and
    # one_stage in the forward only; with the TMA forms on, they may take some forwards
    if tma == "0":
        assert widest_counts[0] >= 2 and widest_counts[1] >= 2 and all(widest_counts), widest_counts
    else:
        assert any(widest_counts), widest_counts


# fp16/bf16 data: the 16-bit wgmmas read A from shared memory, and the 128- and 256-column tiles issue the same k16
# products per column in one order.
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("tma", ["0", "1"])
def test_widest16_gather_agrees_bitwise(tmp_path, tma, dtype, monkeypatch):
    if not hopper_wgmma():
        pytest.skip("the wgmma tiles are built for sm_90a and run on compute capability 9.0")
    monkeypatch.setenv("TCONV_GATHER_TMA", tma)
    check_widest_runs(run_under_switch(CODE, tmp_path, "TCONV_GATHER_WIDEST", values=("2", "0"), args=(dtype,)), tma)


@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_widest_gather_meets_the_contract(name, layout, poison_allocator):
    if os.environ.get("TCONV_GATHER_WIDEST") != "2":
        pytest.skip("runs under TCONV_GATHER_WIDEST=2 (these shapes' grids are too small for the default rule to take "
                    "the 256-column tile; the 128-column tiles' contract is tested elsewhere)")
    run_case(*CASES[name], mode="tf32", layout=layout, seed=31, poison=poison_allocator, algorithm="igemm")


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_widest16_gather_meets_the_contract(name, layout, mode, poison_allocator):
    if os.environ.get("TCONV_GATHER_WIDEST") != "2":
        pytest.skip("runs under TCONV_GATHER_WIDEST=2 (see above)")
    run_case(*CASES[name], mode=mode, layout=layout, seed=37, poison=poison_allocator, algorithm="igemm")


RULE_CODE = """
import sys, torch, tconv
torch.backends.cudnn.allow_tf32 = True
counts = []
# 128-column blocks per pass: 2 and 32 (at most half a wave of 132 SMs), 128 (~a wave) and 256
for batch, size in [(1, 8), (2, 32), (8, 32), (16, 32)]:
    x = torch.randn(batch, 256, size, size, device="cuda", requires_grad=True)
    w = torch.randn(256, 256, 3, 3, device="cuda")
    with tconv._ops.use_algorithm("igemm"), \\
            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = tconv.conv_transpose2d(x, w, None, 1, 1)
        torch.autograd.grad(out, [x], torch.randn_like(out))
        torch.cuda.synchronize()
    counts.append(sum("WIDEST" in e.name for e in prof.events()))
torch.save(counts, sys.argv[1])
""".replace("WIDEST", WIDEST_KERNEL)


def test_widest_gather_rule_by_grid(tmp_path):
    """By default (TCONV_GATHER_WIDEST=1) a call whose 128-column grid fills at most half a wave keeps the
    128-column tiles; a larger one takes the 256-column tile in both the forward and grad_input (the cp.async
    gather: TMA off)."""
    if not hopper_wgmma():
        pytest.skip("the wgmma tiles are built for sm_90a and run on compute capability 9.0")
    if not 64 <= torch.cuda.get_device_properties(0).multi_processor_count < 256:
        pytest.skip("the shapes' grids (2, 32, 128, 256 blocks of 128 columns) are chosen around 132 SMs")
    counts = run_under_switch(RULE_CODE, tmp_path, "TCONV_GATHER_TMA", values=("0",))["0"]
    assert counts[:2] == [0, 0] and min(counts[2:]) >= 2, counts
