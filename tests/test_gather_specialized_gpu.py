"""The warp-specialized 128-column gather GEMM on the GPU (skipped without CUDA).

On Hopper (sm_90a builds), TF32-mode forward and grad_input calls with at least 128 GEMM columns (output
channels per group; input channels for grad_input; channels x stride under the W fold) run a tile whose
producer warpgroup gathers the stages while two MMA warpgroups consume them, synchronised by mbarriers
(igemm_config.h, WgmmaWiderSpecializedGatherTile). Checked here: the precision contract on shapes with long
K loops (the stage ring wraps many times, so both barrier parities are exercised), odd and single-stage K
loops, a partial column tile, groups, the W-tap window, the W fold and grad_input's phase split; that this
tile is what runs (profiler kernel names); and that it gives the same bits as the tile without warp
specialization (TCONV_GATHER_SPECIALIZED=0), which issues the same wgmmas in the same K order.
"""
import os
import subprocess
import sys

import pytest
import torch

import tconv
from conftest import cuda_ready
from test_conv_transpose_gpu import TCONV_FN, run_case

pytestmark = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU")

# dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
CASES = {
    # 27 taps x 2 channel chunks (54 stages; the W-tap window), partial M tiles
    "k3_3d_long_k": (3, 2, 64, 128, 1, [3, 3, 3], [1, 1, 1], [1, 1, 1], [0, 0, 0], [1, 1, 1], [6, 7, 9], True),
    # DCGAN-like: a partial column tile (160 = 128 + 32); grad_input over 256 columns, phase split
    "dcgan_like": (2, 4, 256, 160, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [9, 11], True),
    # HiFi-GAN-like: the forward's W fold (1024 columns), grad_input's edged phase split
    "vocoder_like": (1, 2, 256, 128, 1, [16], [8], [4], [0], [1], [37], True),
    # 128 columns per group, two groups, window span 4 at dilation 1
    "grouped_window": (2, 2, 48, 256, 2, [3, 5], [1, 1], [1, 2], [0, 0], [1, 1], [13, 29], False),
    # one tap and one 24-channel chunk: a single stage (an odd count) per tile
    "one_stage": (2, 1, 24, 128, 1, [1, 1], [1, 1], [0, 0], [0, 0], [1, 1], [9, 15], True),
    # three channel chunks of one tap (an odd count above one) with dilation and output_padding
    "three_stages": (2, 2, 72, 136, 1, [2, 1], [2, 1], [0, 0], [1, 0], [2, 1], [7, 45], True),
}
SPECIALIZED_KERNEL = "GatherGemmTile<128, 1, true, 6, 4, 32, "  # any producer count (demangled name)


def hopper_wgmma():
    """A Hopper GPU and a build with sm_90a code (tconv._build.gencode_flags, the same environment as the build)."""
    flags = tconv._build.gencode_flags(tconv._build.arch_list())
    return torch.cuda.get_device_capability() == (9, 0) and "-DTCONV_WGMMA" in flags


@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_specialized_gather_meets_the_contract(name, layout, poison_allocator):
    run_case(*CASES[name], mode="tf32", layout=layout, seed=11, poison=poison_allocator)


def test_specialized_gather_is_what_runs():
    if not hopper_wgmma():
        pytest.skip("the warp-specialized tile is built for sm_90a and runs on compute capability 9.0")
    dims, batch, _, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = CASES["k3_3d_long_k"]
    # 128 input channels, so grad_input (128 columns) takes the tile as well as the forward
    x = torch.randn(batch, 128, *spatial, device="cuda", requires_grad=True)
    w = torch.randn(128, cout, *kernel, device="cuda", requires_grad=True)
    old = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = True
    try:
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
            # a contiguous grad_output (out.sum()'s would be an expanded, stride-0 one, which stays plain)
            out.backward(torch.randn_like(out))
            torch.cuda.synchronize()
    finally:
        torch.backends.cudnn.allow_tf32 = old
    names = [e.name for e in prof.events() if "gather_tf32_kernel" in e.name]
    assert sum(SPECIALIZED_KERNEL in n for n in names) >= 2, names  # forward and grad_input


def test_specialized_gather_matches_the_plain_tile_bitwise(tmp_path):
    """Same wgmmas in the same K order, so the same bits; TCONV_GATHER_SPECIALIZED is read once per process."""
    code = """
import sys, torch, tconv
torch.backends.cudnn.allow_tf32 = True
results = []
for dims, cin, cout, kernel, stride, padding, spatial in [
        (2, 256, 160, [4, 4], [2, 2], [1, 1], [9, 11]),
        (3, 128, 128, [3, 3, 3], [1, 1, 1], [1, 1, 1], [6, 7, 9]),
        (1, 256, 128, [16], [8], [4], [37])]:
    g = torch.Generator(device="cuda").manual_seed(5)
    x = torch.randn(2, cin, *spatial, device="cuda", generator=g, requires_grad=True)
    w = torch.randn(cin, cout, *kernel, device="cuda", generator=g)
    b = torch.randn(cout, device="cuda", generator=g)
    fn = {1: tconv.conv_transpose1d, 2: tconv.conv_transpose2d, 3: tconv.conv_transpose3d}[dims]
    out = fn(x, w, b, stride, padding)
    grad = torch.randn(out.shape, device="cuda", generator=g)
    (gi,) = torch.autograd.grad(out, [x], grad)
    results += [out.detach().cpu(), gi.cpu()]
torch.save(results, sys.argv[1])
"""
    files = {}
    for value in ("1", "2", "0"):  # 128 producer threads, 256, not specialized
        path = tmp_path / f"specialized_{value}.pt"
        run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=600,
                             env=dict(os.environ, TCONV_GATHER_SPECIALIZED=value))
        assert run.returncode == 0, run.stderr[-3000:]
        files[value] = torch.load(path)
    for value in ("1", "2"):
        for i, (on, off) in enumerate(zip(files[value], files["0"])):
            assert torch.equal(on, off), f"{value}, tensor {i}: max difference {(on - off).abs().max().item()}"
