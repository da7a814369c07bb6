"""The 256-column plain wgmma gather tile on the GPU (skipped without CUDA).

By default the wgmma gather GEMMs (fp32 data in TF32 mode, fp16, bf16) with at least 256 columns (output channels
per group; input channels for grad_input; channels x stride under the W fold) run on `GatherGemmTile<256, 1, true>`
instead of the 128-column tiles (igemm_config.h, WgmmaWidestGatherTile: why and the measurements);
`TCONV_GATHER_WIDEST=0` (development, read once per process) keeps the 128-column tiles. Checked here: that it gives the bits of the 128-column plain tile (the same
wgmmas per column in the same K order) on a DCGAN-like call (grad_input's spread rows, the forward's W fold over 640
columns: a partial column tile), the W-tap window, groups of 256 and a single stage, with and without the TMA forms
in the way; that it is what runs; and, unless the test process runs under TCONV_GATHER_WIDEST=0, the precision
contract on the same shapes (poisoned outputs, both layouts), in all three dtypes.
"""
import os

import pytest

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
    runs = run_under_switch(CODE, tmp_path, "TCONV_GATHER_WIDEST", args=("float32",))
    check_widest_runs(runs, tma)


def check_widest_runs(runs, tma):
    (widest, widest_counts), (plain, plain_counts) = runs["1"], runs["0"]
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
    check_widest_runs(run_under_switch(CODE, tmp_path, "TCONV_GATHER_WIDEST", args=(dtype,)), tma)


@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_widest_gather_meets_the_contract(name, layout, poison_allocator):
    if os.environ.get("TCONV_GATHER_WIDEST") == "0":
        pytest.skip("the 256-column tile is off under TCONV_GATHER_WIDEST=0 (the 128-column tiles' contract is "
                    "tested elsewhere)")
    run_case(*CASES[name], mode="tf32", layout=layout, seed=31, poison=poison_allocator, algorithm="igemm")


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_widest16_gather_meets_the_contract(name, layout, mode, poison_allocator):
    if os.environ.get("TCONV_GATHER_WIDEST") == "0":
        pytest.skip("the 256-column tile is off under TCONV_GATHER_WIDEST=0 (the 128-column tiles' contract is "
                    "tested elsewhere)")
    run_case(*CASES[name], mode=mode, layout=layout, seed=37, poison=poison_allocator, algorithm="igemm")
