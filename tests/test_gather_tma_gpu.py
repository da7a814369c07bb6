"""The TMA gather on the GPU (skipped without CUDA; the kernel checks run on compute capability 9.0 with sm_90a code).

The forward and grad_input GEMMs of TF32-mode fp32 calls whose phase grids split into 128-position boxes run on
csrc/conv_transpose_igemm_tma.cu: the source is copied to channels-last once (TF32-rounded), each stage's A tile is
one TMA box of that copy, and both wgmma operands come from shared memory. Checked here, under "igemm_tma" (the TMA
gather wherever it can run): the precision contract against float64 and PyTorch on shapes that cover each box form
(whole W lines of 128, several H lines, several D planes), grad_input's traversal stride, source shifts past every
edge (zeros from the box), a phase with no taps (bias only), a partial column tile, a partial channel chunk, groups,
dilation and output_padding, both memory layouts and an empty batch, and (under "igemm_tma" only) grids no box tiles
exactly and 64-column tiles; that the kernel is what runs, under "auto" too where it is planned, and not under the
variants that pin another gather form. Under "igemm_tma_window" the same contract for the W-tap window (every case
above, and WINDOW_CASES for its geometries), which kernels run, the copy budget's batch chunks
(TCONV_TMA_COPY_BUDGET) and the window's "auto" rule. fp16/bf16 data: on the copy under "igemm_tma" (or "auto" with
TCONV_GATHER_TMA_16BIT=1), the contract on every case and which kernel runs; sources already channels-last read in
place (no copy kernel) under "igemm_tma" and "auto", forward and grad_input; contiguous ones left to the cp.async
gathers under "auto". TF32 sources already channels-last read in place, their A fragments rounded by the MMA threads
(the rounded kernel): the contract, bit-for-bit agreement with the copy form, and where "auto" takes them.
"""
import os
import subprocess
import sys

import pytest
import torch

import tconv
from conftest import assert_bitwise_equal, cuda_ready, run_under_switch, sixteen_bit_script_head
from test_conv_transpose_gpu import TCONV_FN, precision, run_case
from test_gather_specialized_gpu import hopper_wgmma

pytestmark = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU")

TMA_KERNEL = "tconv_igemm_gather_tma_kernel"


def require_tma16():
    """Skips where the 16-bit TMA gather cannot run or is switched off."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    if os.environ.get("TCONV_GATHER_TMA_16BIT", "") == "0":
        pytest.skip("TCONV_GATHER_TMA_16BIT=0 keeps 16-bit data off the TMA gather")


def assert_passes_bitwise_equal(on, off):
    """Two runs' [name, output, grad_input, ...] rows agree bit for bit."""
    for i, pass_name in ((1, "forward"), (2, "grad_input")):
        assert torch.equal(on[i], off[i]), (on[0], pass_name, (on[i].float() - off[i].float()).abs().max().item())

# dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
CASES = {
    # DCGAN-like: 16 x 16 phase grids (boxes of 8 H lines x 16), grad_input at traversal stride 2
    "dcgan_like": (2, 2, 128, 128, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [16, 16], True),
    # U-Net-like 3D up-conv: 8 x 8 x 8 phase grids (boxes of 2 D planes), grad_input at stride 2 in every dimension
    "unet_like": (3, 2, 64, 128, 1, [2, 2, 2], [2, 2, 2], [0, 0, 0], [0, 0, 0], [1, 1, 1], [8, 8, 8], False),
    # 1D vocoder-like: 256-position phase lines (two boxes per line), grad_input's boxes of 256 at stride 2
    "vocoder_like": (1, 2, 64, 128, 1, [4], [2], [1], [0], [1], [256], True),
    # a partial column tile (160 = 128 + 32) and a partial channel chunk (48 input channels: zeros past the tensor)
    "partial_tiles": (2, 2, 48, 160, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [16, 16], True),
    # two groups of 32 input and 128 output channels
    "grouped": (2, 2, 64, 256, 2, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [16, 16], True),
    # stride 1, nine taps whose shifts reach past every edge (4 lines of 32 per box)
    "stride1_k3": (2, 2, 64, 128, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [16, 32], True),
    # dilation 2 with output_padding: the odd forward phases have no taps (bias only)
    "dilated_empty_phase": (2, 2, 64, 128, 1, [3, 3], [2, 2], [2, 2], [1, 1], [2, 2], [16, 16], True),
    # asymmetric kernel and strides, 3D: 4 channel chunks of 3 (forward) and 12 taps (grad_input), the ring wrapping
    "asym_3d": (3, 1, 128, 128, 1, [2, 3, 2], [2, 1, 2], [0, 1, 0], [0, 0, 0], [1, 1, 1], [4, 16, 8], True),
    # 256-column tiles (forward: 320 columns, a partial second tile; grad_input: 256)
    "wide_columns": (2, 2, 256, 320, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [16, 16], True),
    # what "auto" takes (K of 2048 both ways): 64 forward stages, grad_input on the 256-column tile at 512 columns
    "dcgan_auto": (2, 2, 512, 128, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [16, 16], True),
    # an empty batch
    "empty_batch": (2, 0, 64, 128, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [16, 16], True),
    # "igemm_tma" only: grids no box tiles (forward 7 x 8 x 9, grad_input 5 x 6 x 7: boxes past the end, rows not
    # stored) on 64-column tiles both ways, like L2-61's 34^3
    "partial_boxes_3d": (3, 2, 64, 64, 1, [3, 3, 3], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [5, 6, 7], True),
    # four phases of 9 x 10 each, 160 columns (a partial second 128-column tile); grad_input's 32 columns
    "partial_boxes_phases": (2, 2, 32, 160, 1, [3, 3], [2, 2], [1, 1], [1, 1], [1, 1], [9, 10], True),
    # L1-68-like: 75 taps of 32 channels, 64 columns, an 8 x 12 x 12 grid
    "partial_boxes_l1_68": (3, 1, 32, 64, 1, [3, 5, 5], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [6, 8, 8], False),
}

# "igemm_tma_window": the W taps of a (D, H) tap on one box, each a row shift of the wgmma descriptor. Besides CASES
# (where the window applies, and the per-tap boxes where it does not: grad_input at W stride 2, one W tap), these
# cover each geometry: narrow grids (GEMM rows in lines of extent_w + span, a block's rows from any line start,
# crossing lines and planes), wide ones (one 128-position box per run, runs on one line or several), both column tiles
# (64, 128; calls of at most 32 columns pad to 64).
WINDOW_CASES = {
    # L1-68-like (5 W taps, 75 taps of 32 channels, 64 columns): narrow, 4 blocks' rows over two planes each
    "window_l1_68_like": (3, 2, 32, 64, 1, [3, 5, 5], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [4, 12, 20], True),
    # tiny planes (output 4 x 5 with W padding 1): one block's rows span many planes' worth of box lines
    "window_tiny_planes": (3, 2, 32, 64, 1, [2, 2, 3], [1, 1, 1], [0, 0, 1], [0, 0, 0], [1, 1, 1], [3, 3, 5], True),
    # wide lines (W 300: pitch 302 > 256): three segments per line, blocks straddling lines, 128 columns
    "window_wide_2d": (2, 1, 64, 128, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [5, 300], True),
    # 5 W taps on the same lines at 64 channels both ways, and 64 -> 128 (the 16-bit "auto" rule's wide lines of 64+
    # source channels: the window at 5+ W taps and at most 64 columns)
    "window_wide_five": (2, 1, 64, 64, 1, [3, 5], [1, 1], [1, 2], [0, 0], [1, 1], [5, 300], False),
    "window_wide_five_128": (2, 1, 64, 128, 1, [3, 5], [1, 1], [1, 2], [0, 0], [1, 1], [5, 300], False),
    # the same lines at 32 channels both ways (the 16-bit "auto" rule's wide lines: fewer than 64 channels)
    "window_wide_32": (2, 1, 32, 32, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [5, 300], True),
    # 1D, W dilation 3 (shifts 3 apart, span 12), 32 columns (padded to 64), wide
    "window_1d_dilated": (1, 2, 32, 32, 1, [5], [1], [2], [0], [3], [700], False),
    # phases of 3 and 2 W taps, a partial channel chunk (48), 96 columns (a partial 128-column tile)
    "window_phases": (2, 2, 48, 96, 1, [3, 5], [2, 2], [1, 2], [1, 1], [1, 1], [9, 13], True),
    # H stride 2, W stride 1: grad_input's boxes traverse H at step 2 with the W window
    "window_h_stride": (2, 2, 64, 64, 1, [3, 3], [2, 1], [1, 1], [1, 0], [1, 1], [10, 40], True),
    # two groups of 32 channels
    "window_groups": (2, 2, 64, 64, 2, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [12, 20], True),
    # seven W taps (the widest instantiated loop but one), narrow
    "window_seven_taps": (2, 2, 32, 48, 1, [1, 7], [1, 1], [0, 3], [0, 0], [1, 1], [6, 40], True),
}
# both window kernels: the short tile's one-phase channels-last 16-bit calls run the persistent one
WINDOW_KERNEL = "tconv_igemm_gather_tma_window_"


@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_tma_gather_meets_the_contract(name, layout, poison_allocator):
    run_case(*CASES[name], mode="tf32", layout=layout, seed=13, poison=poison_allocator, algorithm="igemm_tma")


# "igemm_tma_direct": the per-tap boxes taken from the source itself (no channels-last copy), A fragments rounded by the
# MMA threads from the tap's offset in a box that starts on 16 bytes along W. Tiles of whole source lines take flat
# boxes (H and W joined: dcgan_like, stride1_k3, asym_3d, w_shifts_past_both_edges, the positions whose W left the
# line zeroed), the others boxes of W lines (unet_like, partial_boxes_w8; row_padded sources, whose lines are not
# contiguous). Where the source cannot be mapped (channels_last, a W traversal stride, W rows of the box not whole 16
# bytes) the call runs on "igemm", which the contract covers the same.
DIRECT_KERNEL = "tconv_igemm_gather_tma_direct_kernel"
COPY_KERNEL = "tconv_gather_tma_channels_last_kernel"
DIRECT_CASES = {
    # tiles of 64 lines x 2 positions: flat boxes (alone, rows of 8 bytes could not be mapped; row_padded: refused)
    "two_position_lines": (2, 2, 64, 128, 1, [1, 1], [1, 1], [0, 0], [0, 0], [1, 1], [64, 2], True),
    # W shifts -3 .. 3 on lines of 32 (boxes of 36 from a 16-byte start, past both edges), 64 columns
    "w_shifts_past_both_edges": (2, 2, 32, 64, 1, [1, 7], [1, 1], [0, 3], [0, 0], [1, 1], [4, 32], True),
    # boxes past a 5 x 6 x 8 grid both ways (tiles of 8 x 2 x 8), 8-position lines: rows of whole 16 bytes
    "partial_boxes_w8": (3, 2, 64, 64, 1, [3, 3, 3], [1, 1, 1], [1, 1, 1], [0, 0, 0], [1, 1, 1], [5, 6, 8], True),
}


@pytest.mark.parametrize("layout", ["contiguous", "channels_last", "row_padded"])
@pytest.mark.parametrize("name", sorted(CASES) + sorted(DIRECT_CASES))
def test_tma_direct_meets_the_contract(name, layout, poison_allocator):
    case = CASES[name] if name in CASES else DIRECT_CASES[name]
    run_case(*case, mode="tf32", layout=layout, seed=19, poison=poison_allocator, algorithm="igemm_tma_direct")


@pytest.mark.parametrize("name, forward, grad_input", [
    ("dcgan_like", True, False),        # grad_input reads grad_output at W stride 2: not mapped
    ("stride1_k3", True, True),
    ("asym_3d", True, False),           # grad_input at W stride 2
    ("partial_boxes_3d", False, False),  # source rows of 7 and 9 floats: not whole 16 bytes
    ("partial_boxes_w8", True, True),
    ("two_position_lines", True, True),
])
def test_tma_direct_is_what_runs(name, forward, grad_input):
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    names = _kernels_run("igemm_tma_direct", name, {**CASES, **DIRECT_CASES})
    assert sum(DIRECT_KERNEL in n for n in names) == int(forward) + int(grad_input), names
    assert not any(COPY_KERNEL in n or TMA_KERNEL in n or WINDOW_KERNEL in n for n in names), names


@pytest.mark.parametrize("name", ["stride1_k3", "dcgan_like", "partial_boxes_w8", "w_shifts_past_both_edges"])
def test_tma_direct_agrees_bitwise_with_the_copy(name):
    """The direct form rounds A in registers as the copy rounds it (round to nearest), and issues the same wgmmas in
    the same K order, so its forward and (where both run it) grad_input give the copy-based gather's bits."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = \
        {**CASES, **DIRECT_CASES}[name]
    g = torch.Generator(device="cuda").manual_seed(29)
    x = torch.randn(batch, cin, *spatial, device="cuda", generator=g, requires_grad=True)
    w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=g)
    b = torch.randn(cout, device="cuda", generator=g)
    results = {}
    old = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = True
    try:
        for algorithm in ("igemm_tma", "igemm_tma_direct"):
            with tconv._ops.use_algorithm(algorithm):
                out = TCONV_FN[dims](x, w, b, stride, padding, output_padding, groups, dilation)
                grad = torch.randn(out.shape, device="cuda", generator=torch.Generator(device="cuda").manual_seed(31))
                (gi,) = torch.autograd.grad(out, [x], grad)
            results[algorithm] = (out.detach(), gi)
    finally:
        torch.backends.cudnn.allow_tf32 = old
    copy, direct = results["igemm_tma"], results["igemm_tma_direct"]
    assert torch.equal(copy[0], direct[0]), f"forward: max difference {(copy[0] - direct[0]).abs().max().item()}"
    if stride == [1] * len(stride):  # grad_input at W stride 2 runs "igemm" under the direct form
        assert torch.equal(copy[1], direct[1]), f"grad_input: max difference {(copy[1] - direct[1]).abs().max().item()}"


def test_tma_direct_auto_switch(tmp_path):
    """By default "auto" runs dcgan_auto's forward (flat boxes: its tiles are whole lines of the source) on the direct
    form, with no copy and the forced form's bits: the default copy budget refuses the copy-based gather here;
    grad_input (W stride 2: not mapped) stays off TMA. TCONV_TMA_DIRECT_AUTO=0 (read once per process) keeps "auto"
    off the direct form, so it launches no TMA kernel here."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    code = f"""
import sys, torch, tconv
from test_gather_tma_gpu import _kernels_run, CASES
from test_conv_transpose_gpu import TCONV_FN
torch.backends.cudnn.allow_tf32 = True
dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = CASES["dcgan_auto"]
g = torch.Generator(device="cuda").manual_seed(7)
x = torch.randn(batch, cin, *spatial, device="cuda", generator=g)
w = torch.randn(cin, cout, *kernel, device="cuda", generator=g)
outs = []
for algorithm in ("auto", "igemm_tma_direct"):
    with tconv._ops.use_algorithm(algorithm):
        outs.append(TCONV_FN[dims](x, w, None, stride, padding).cpu())
names = _kernels_run("auto")
torch.save([outs, [sum(k in n for n in names) for k in ("{DIRECT_KERNEL}", "{COPY_KERNEL}", "{TMA_KERNEL}")]],
           sys.argv[1])
"""
    for switch, launches in ((None, [1, 0, 0]), ("0", [0, 0, 0])):
        env = {k: v for k, v in os.environ.items() if k not in ("TCONV_TMA_DIRECT_AUTO", "TCONV_TMA_COPY_BUDGET")}
        if switch is not None:
            env["TCONV_TMA_DIRECT_AUTO"] = switch
        path = tmp_path / f"direct_auto_{switch}.pt"
        run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=600,
                             cwd=os.path.dirname(__file__), env=env)
        assert run.returncode == 0, run.stderr[-3000:]
        (auto_out, direct_out), counts = torch.load(path)
        assert counts == launches, (switch, counts)
        if switch is None:
            assert torch.equal(auto_out, direct_out)


@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
@pytest.mark.parametrize("name", sorted(CASES) + sorted(WINDOW_CASES))
def test_tma_window_meets_the_contract(name, layout, poison_allocator):
    case = CASES[name] if name in CASES else WINDOW_CASES[name]
    run_case(*case, mode="tf32", layout=layout, seed=17, poison=poison_allocator, algorithm="igemm_tma_window")


@pytest.mark.parametrize("name, forward, grad_input", [
    ("window_l1_68_like", True, True), ("window_wide_2d", True, True), ("window_h_stride", True, True),
    ("window_phases", True, False),  # grad_input at W stride 2: the per-tap boxes
])
def test_tma_window_is_what_runs(name, forward, grad_input):
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    names = _kernels_run("igemm_tma_window", name, WINDOW_CASES)
    assert sum(WINDOW_KERNEL in n for n in names) == int(forward) + int(grad_input), names
    assert sum(TMA_KERNEL in n for n in names) == 2 - int(forward) - int(grad_input), names


def _kernels_run(algorithm, case="dcgan_auto", cases=CASES):
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = cases[case]
    x = torch.randn(batch, cin, *spatial, device="cuda", requires_grad=True)
    w = torch.randn(cin, cout // groups, *kernel, device="cuda", requires_grad=True)
    old = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = True
    try:
        with tconv._ops.use_algorithm(algorithm), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
            out.backward(torch.randn_like(out))
            torch.cuda.synchronize()
    finally:
        torch.backends.cudnn.allow_tf32 = old
    return [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]


def test_tma_gather_is_what_runs():
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    names = _kernels_run("igemm_tma")
    assert sum(TMA_KERNEL in n for n in names) == 2, names  # the forward and grad_input


# TCONV_TMA_COPY_BUDGET (read once per process): unset, "auto" and "igemm" hold the channels-last copy to 10 % of the
# output, which one image of dcgan_auto passes (50 % each pass); at 60 % chunks of one image fit, but take two waves of
# blocks where the whole batch takes one (igemm_config.h, kTmaChunkWaveSlack), so the copy is refused there too and the
# forward takes the direct form (its boxes are one row per channel; grad_input's W stride 2 is not mapped); with no
# bound (0) both passes take the copy, which is faster where it fits. Launches: (copy-form GEMM, direct form).
@pytest.mark.parametrize("budget, launches", [(None, [0, 1]), ("60", [0, 1]), ("0", [2, 0])])
@pytest.mark.parametrize("algorithm", ["auto", "igemm"])
def test_tma_gather_under_auto_keeps_the_copy_budget(tmp_path, algorithm, budget, launches):
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    code = f"""
import sys, torch
from test_gather_tma_gpu import _kernels_run
names = _kernels_run("{algorithm}")
torch.save([sum(k in n for n in names) for k in ("{TMA_KERNEL}", "{DIRECT_KERNEL}")], sys.argv[1])
"""
    env = {k: v for k, v in os.environ.items() if k != "TCONV_TMA_COPY_BUDGET"}
    if budget is not None:
        env["TCONV_TMA_COPY_BUDGET"] = budget
    path = tmp_path / "launches.pt"
    run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=600,
                         cwd=os.path.dirname(__file__), env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    assert torch.load(path) == launches


@pytest.mark.parametrize("algorithm", ["igemm_tma", "auto"])
def test_partial_boxes_and_64_columns_only_under_igemm_tma(algorithm):
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    names = _kernels_run(algorithm, "partial_boxes_3d")
    ran = [n for n in names if TMA_KERNEL in n]
    if algorithm == "igemm_tma":
        assert len(ran) == 2 and all("TmaGatherTileOfILi64E" in n or "TmaGatherTileOf<64" in n for n in ran), names
    else:
        assert not ran, names


@pytest.mark.parametrize("algorithm", ["igemm_nowindow", "igemm_window", "igemm_mma", "igemm_nofold"])
def test_tma_gather_stays_off_under_other_gather_forms(algorithm):
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    names = _kernels_run(algorithm)
    assert not any(TMA_KERNEL in n or WINDOW_KERNEL in n for n in names), names


@pytest.mark.parametrize("algorithm", ["igemm_tma", "igemm"])
def test_tma_window_only_under_its_algorithm(algorithm):
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    names = _kernels_run(algorithm, "window_l1_68_like", WINDOW_CASES)
    assert not any(WINDOW_KERNEL in n for n in names), names


def test_tma_gather_leaves_exact_fp32_alone():
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    x = torch.randn(2, 128, 16, 16, device="cuda")
    w = torch.randn(128, 128, 4, 4, device="cuda")
    old = torch.backends.cudnn.allow_tf32
    try:
        torch.backends.cudnn.allow_tf32 = False
        with tconv._ops.use_algorithm("igemm_tma"), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            tconv.conv_transpose2d(x, w, None, 2, 1)
            torch.cuda.synchronize()
        assert not any(TMA_KERNEL in e.name for e in prof.events())
    finally:
        torch.backends.cudnn.allow_tf32 = old


# fp16/bf16 data on the copy form (tconv_igemm_gather_tma16_kernel: a 16-bit channels-last copy, boxes of 64 channels,
# k16 wgmmas on the values as they are), under "igemm_tma" unless TCONV_GATHER_TMA_16BIT=0 (read once per process;
# run 450: 3 passed). Forward and grad_input of every case under "igemm_tma" meet the 16-bit contract (run_case:
# float64 and torch in the same dtype, outputs and every gradient, poisoned outputs); the kernel runs on every case
# with a batch (grouped: grad_input only, its forward's 32 channels a group being less than a 64-channel box), and
# under 0 on none.
# both per-tap 16-bit kernels: the persistent one too (TCONV_TMA_GATHER_PERSISTENT)
TMA16_KERNEL = "tconv_igemm_gather_tma16_"


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_tma_gather_16bit_meets_the_contract(tmp_path, mode):
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    code = sixteen_bit_script_head("test_gather_tma_gpu", mode) + f"""
launches = []
for i, name in enumerate(sorted(t.CASES)):
    case = t.CASES[name]
    run_case(*case, mode={mode!r}, layout="contiguous", seed=60 + i, poison=poison_cuda_allocator,
             algorithm="igemm_tma")
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    x = torch.randn(batch, cin, *spatial, device="cuda", dtype=dtype, requires_grad=True)
    w = torch.randn(cin, cout // groups, *kernel, device="cuda", dtype=dtype)
    with tconv._ops.use_algorithm("igemm_tma"), \\
            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
        out.backward(torch.randn_like(out))
        torch.cuda.synchronize()
    launches.append(sum(t.TMA16_KERNEL in e.name for e in prof.events()
                        if e.device_type == torch.autograd.DeviceType.CUDA))
torch.save(launches, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_GATHER_TMA_16BIT", values=("1", "0"))
    for name, on, off in zip(sorted(CASES), saved["1"], saved["0"]):
        wanted = 0 if CASES[name][1] == 0 else 1 if name == "grouped" else 2  # forward and grad_input
        assert on == wanted and off == 0, (name, on, off)


def test_tma_gather_tile_widths_agree_bitwise(tmp_path):
    """The 128- and 256-column tiles issue the same wgmmas per output in the same K order, so the same bits;
    TCONV_GATHER_TMA_WIDE is read once per process."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    code = """
import sys, torch, tconv
torch.backends.cudnn.allow_tf32 = True
g = torch.Generator(device="cuda").manual_seed(7)
x = torch.randn(2, 256, 16, 16, device="cuda", generator=g, requires_grad=True)
w = torch.randn(256, 320, 4, 4, device="cuda", generator=g)
b = torch.randn(320, device="cuda", generator=g)
with tconv._ops.use_algorithm("igemm_tma"):
    out = tconv.conv_transpose2d(x, w, b, 2, 1)
    (gi,) = torch.autograd.grad(out, [x], torch.randn(out.shape, device="cuda", generator=g))
torch.save([out.detach().cpu(), gi.cpu()], sys.argv[1])
"""
    results = {}
    for value in ("1", "0"):
        path = tmp_path / f"wide_{value}.pt"
        run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=600,
                             env=dict(os.environ, TCONV_GATHER_TMA_WIDE=value))
        assert run.returncode == 0, run.stderr[-3000:]
        results[value] = torch.load(path)
    for i, (wide, narrow) in enumerate(zip(results["1"], results["0"])):
        assert torch.equal(wide, narrow), f"tensor {i}: max difference {(wide - narrow).abs().max().item()}"


def test_tma_direct_wide_agrees_bitwise(tmp_path):
    """The direct form on 256 columns where a call has them (its MMA warpgroups take the producer's registers by
    setmaxnreg; TCONV_TMA_DIRECT_WIDE=0, read once per process, keeps 128). Each output's wgmmas run the same K order
    as on the 128-column tile, so the same bits; a partial second column tile (320); grad_input (W stride 2) stays off
    the direct form."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    code = f"""
import sys, torch, tconv
torch.backends.cudnn.allow_tf32 = True
outs, names = [], []
for cin, cout, kernel, stride, padding, spatial in [(256, 320, 4, 2, 1, 16), (128, 256, 3, 1, 1, 32)]:
    g = torch.Generator(device="cuda").manual_seed(7)
    x = torch.randn(2, cin, spatial, spatial, device="cuda", generator=g, requires_grad=True)
    w = torch.randn(cin, cout, kernel, kernel, device="cuda", generator=g)
    b = torch.randn(cout, device="cuda", generator=g)
    with tconv._ops.use_algorithm("igemm_tma_direct"), \\
            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = tconv.conv_transpose2d(x, w, b, stride, padding)
        (gi,) = torch.autograd.grad(out, [x], torch.randn(out.shape, device="cuda", generator=g))
        torch.cuda.synchronize()
    outs += [out.detach().cpu(), gi.cpu()]
    names.append([e.name for e in prof.events() if "{DIRECT_KERNEL}" in e.name])
torch.save([outs, names], sys.argv[1])
"""
    results = run_under_switch(code, tmp_path, "TCONV_TMA_DIRECT_WIDE")
    (outs, names), (narrow_outs, narrow_names) = results["1"], results["0"]
    assert not any("TmaGatherTileOf<256" in n for call in narrow_names for n in call), narrow_names
    assert_bitwise_equal(outs, narrow_outs)
    # the forward of both calls on the 256-column direct kernel, nothing else on the direct form
    assert [sum("TmaGatherTileOf<256, 4" in n for n in call) for call in names] == [1, 1], names
    assert [len(call) for call in names] == [1, 2], names  # the stride-1 call's grad_input maps too


@pytest.mark.parametrize("name, algorithm, percent", [
    ("window_l1_68_like", "igemm_tma_window", 11),  # forward copy 10.4 % of the output per image: 2 chunks of 1
    ("dcgan_like", "igemm_tma", 13),                # forward 12.5 % per image: 2 chunks of 1
])
def test_copy_budget_chunks_agree_bitwise(tmp_path, name, algorithm, percent):
    """TCONV_TMA_COPY_BUDGET (read once per process) splits the batch into chunks whose channels-last copy fits the
    budget; each output is the same sum in the same order, so the forward's bits do not change. grad_input's copy
    (grad_output, larger per image) passes the budget, so it leaves the TMA gather: checked against the whole-batch
    run within TF32 error."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    case = CASES[name] if name in CASES else WINDOW_CASES[name]
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    code = f"""
import sys, torch, tconv
from test_conv_transpose_gpu import TCONV_FN
torch.backends.cudnn.allow_tf32 = True
g = torch.Generator(device="cuda").manual_seed(11)
x = torch.randn({batch}, {cin}, *{spatial}, device="cuda", generator=g, requires_grad=True)
w = torch.randn({cin}, {cout // groups}, *{kernel}, device="cuda", generator=g)
b = torch.randn({cout}, device="cuda", generator=g)
def gemms(prof):
    return sum("{TMA_KERNEL}" in e.name or "{WINDOW_KERNEL}" in e.name for e in prof.events()
               if e.device_type == torch.autograd.DeviceType.CUDA)
with tconv._ops.use_algorithm("{algorithm}"):
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as forward:
        out = TCONV_FN[{dims}](x, w, b, {stride}, {padding}, {output_padding}, {groups}, {dilation})
        torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as backward:
        (gi,) = torch.autograd.grad(out, [x], torch.randn(out.shape, device="cuda", generator=g))
        torch.cuda.synchronize()
torch.save([out.detach().cpu(), gi.cpu(), gemms(forward), gemms(backward)], sys.argv[1])
"""
    results = {}
    for value in (str(percent), "0"):
        path = tmp_path / f"budget_{value}.pt"
        run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=600,
                             cwd=os.path.dirname(__file__), env=dict(os.environ, TCONV_TMA_COPY_BUDGET=value))
        assert run.returncode == 0, run.stderr[-3000:]
        results[value] = torch.load(path)
    chunked, whole = results[str(percent)], results["0"]
    # TMA GEMM launches, forward and grad_input: two chunks and none (over the budget) against one and one
    assert chunked[2:] == [2, 0] and whole[2:] == [1, 1], (chunked[2:], whole[2:])
    assert torch.equal(chunked[0], whole[0]), f"forward: max difference {(chunked[0] - whole[0]).abs().max().item()}"
    torch.testing.assert_close(chunked[1], whole[1], rtol=2e-3, atol=2e-3)


def test_window_auto_rule(tmp_path):
    """"auto" runs the forward of a narrow-grid, 64-column, long-K call on the TMA window (igemm_config.h,
    TmaWindowAutoRule), with the forced form's bits; a wide-line call and grad_input stay where they were, and
    TCONV_TMA_WINDOW_AUTO=0 turns the rule off. The copy budget is lifted (TCONV_TMA_COPY_BUDGET=0): one image of
    this small call passes 10 % of its output, which keeps "auto" off the window (the next test)."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    code = f"""
import sys, torch, tconv
from test_conv_transpose_gpu import TCONV_FN
torch.backends.cudnn.allow_tf32 = True
g = torch.Generator(device="cuda").manual_seed(3)
def window_launches(fn, x, w, grad=False):
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = fn(x, w)
        if grad:
            torch.autograd.grad(out, [x], torch.ones_like(out))
        torch.cuda.synchronize()
    return out.detach().cpu(), sum("{WINDOW_KERNEL}" in e.name for e in prof.events()
                                   if e.device_type == torch.autograd.DeviceType.CUDA)
x = torch.randn(2, 32, 4, 12, 20, device="cuda", generator=g, requires_grad=True)
w = torch.randn(32, 64, 3, 5, 5, device="cuda", generator=g)
auto_out, auto_runs = window_launches(tconv.conv_transpose3d, x, w, grad=True)
with tconv._ops.use_algorithm("igemm_tma_window"):
    forced_out, _ = window_launches(tconv.conv_transpose3d, x, w)
wide = torch.randn(1, 64, 5, 300, device="cuda", generator=g)
_, wide_runs = window_launches(lambda a, b: tconv.conv_transpose2d(a, b, None, 1, 1), wide,
                               torch.randn(64, 64, 3, 3, device="cuda", generator=g))
torch.save([auto_out, forced_out, auto_runs, wide_runs], sys.argv[1])
"""
    runs = {}
    for switch in ("1", "0"):
        path = tmp_path / f"auto_{switch}.pt"
        run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=600,
                             cwd=os.path.dirname(__file__),
                             env=dict(os.environ, TCONV_TMA_WINDOW_AUTO=switch, TCONV_TMA_COPY_BUDGET="0"))
        assert run.returncode == 0, run.stderr[-3000:]
        auto_out, forced_out, runs[switch], wide_runs = torch.load(path)
        assert wide_runs == 0
        if switch == "1":
            assert torch.equal(auto_out, forced_out)
    assert runs == {"1": 1, "0": 0}, runs  # the forward only


def test_window_auto_rule_keeps_the_copy_budget(tmp_path):
    """Under the default budget "auto" takes the window in chunks of whole images where they take no more waves of
    blocks than the whole batch (here 4 chunks of 5 images, 630 blocks each: 20 waves either way on 132 SMs), with the
    whole batch's bits; where one image passes the budget it stays off the window."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    code = f"""
import sys, torch, tconv
torch.backends.cudnn.allow_tf32 = True
g = torch.Generator(device="cuda").manual_seed(5)
def window_launches(x, w):
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = tconv.conv_transpose3d(x, w)
        torch.cuda.synchronize()
    return out.cpu(), sum("{WINDOW_KERNEL}" in e.name for e in prof.events()
                          if e.device_type == torch.autograd.DeviceType.CUDA)
w = torch.randn(32, 64, 3, 5, 5, device="cuda", generator=g)
big = torch.randn(20, 32, 16, 48, 60, device="cuda", generator=g)
auto_out, big_runs = window_launches(big, w)
with tconv._ops.use_algorithm("igemm_tma_window"):
    forced_out, _ = window_launches(big, w)
_, small_runs = window_launches(torch.randn(2, 32, 4, 12, 20, device="cuda", generator=g), w)
torch.save([torch.equal(auto_out, forced_out), big_runs, small_runs], sys.argv[1])
"""
    env = {k: v for k, v in os.environ.items() if k not in ("TCONV_TMA_COPY_BUDGET", "TCONV_TMA_WINDOW_AUTO")}
    path = tmp_path / "budget.pt"
    run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=600,
                         cwd=os.path.dirname(__file__), env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    same, big_runs, small_runs = torch.load(path)
    assert big_runs == 4 and small_runs == 0, (big_runs, small_runs)
    assert same


# 16-bit sources already channels-last (channels innermost, position strides whole 16 bytes, a 16-byte address): the
# boxes are taken from the source itself, so no copy kernel runs and no copy budget applies, under "igemm_tma" and
# (the switch unset) under "auto". Every 4-D/5-D case with a batch, grad_output channels-last too (as autograd hands
# it for a channels-last output), meets the 16-bit contract (float64 and torch in the same dtype, every gradient,
# poisoned outputs); the 16-bit TMA kernel runs for the forward and grad_input (grouped: grad_input only) and the
# channels-last copy kernel never.
TMA16_COPY_KERNEL = "tconv_gather_tma_channels_last16_kernel"
IN_PLACE_CASES = sorted(name for name, case in CASES.items() if case[0] in (2, 3) and case[1] > 0)


def run_channels_last_pass(case, dtype, algorithm, kernel_name=TMA16_KERNEL):
    """(launches of kernel_name, of the 16-bit copy kernel) in one channels-last forward + backward of `case`."""
    cuda = channels_last_pass_kernels(case, dtype, algorithm)
    return sum(kernel_name in n for n in cuda), sum(TMA16_COPY_KERNEL in n for n in cuda)


def channels_last_pass_kernels(case, dtype, algorithm):
    """The CUDA kernels' names of one channels-last forward + backward of `case`."""
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    fmt = torch.channels_last if dims == 2 else torch.channels_last_3d
    x = torch.randn(batch, cin, *spatial, device="cuda", dtype=dtype).contiguous(memory_format=fmt)
    x.requires_grad_()
    w = torch.randn(cin, cout // groups, *kernel, device="cuda", dtype=dtype)
    with tconv._ops.use_algorithm(algorithm), \
            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
        out.backward(torch.randn_like(out))
        torch.cuda.synchronize()
    assert out.is_contiguous(memory_format=fmt)
    return [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]


def seeded_channels_last_pass(case, dtype, algorithm, seed, by_pass=False, grad_weight=False):
    """One channels-last forward (with a bias) and grad_input of `case` under `algorithm` on inputs drawn from `seed`
    (the same in every process): (output, grad_input on the CPU, the CUDA kernels' names; by_pass: the forward's and
    the backward's apart; grad_weight: the backward computes grad_weight too, and the second item is [grad_input,
    grad_weight]). 1D cases are contiguous."""
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    fmt = {1: torch.contiguous_format, 2: torch.channels_last, 3: torch.channels_last_3d}[dims]
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(batch, cin, *spatial, device="cuda", generator=g).to(dtype).contiguous(memory_format=fmt)
    x.requires_grad_()
    w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=g).to(dtype)
    w.requires_grad_(grad_weight)
    b = torch.randn(cout, device="cuda", generator=g).to(dtype)

    def profile():
        return torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA])

    with tconv._ops.use_algorithm(algorithm):
        with profile() as forward:
            out = TCONV_FN[dims](x, w, b, stride, padding, output_padding, groups, dilation)
            torch.cuda.synchronize()
        dy = torch.randn(out.shape, device="cuda", generator=g).to(dtype).contiguous(memory_format=fmt)
        with profile() as backward:
            grads = torch.autograd.grad(out, [x, w] if grad_weight else [x], dy)
            torch.cuda.synchronize()
    names = [[e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
             for prof in (forward, backward)]
    grads = [grad.cpu() for grad in grads]
    return out.detach().cpu(), grads if grad_weight else grads[0], names if by_pass else names[0] + names[1]


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
@pytest.mark.parametrize("name", IN_PLACE_CASES)
def test_tma_gather_16bit_in_place_meets_the_contract(name, mode, poison_allocator):
    require_tma16()
    run_case(*CASES[name], mode=mode, layout="channels_last", seed=80 + IN_PLACE_CASES.index(name),
             poison=poison_allocator, algorithm="igemm_tma", grad_like_output=True)
    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}[mode]
    runs, copies = run_channels_last_pass(CASES[name], dtype, "igemm_tma")
    assert (runs, copies) == (1 if name == "grouped" else 2, 0), (name, runs, copies)


@pytest.mark.parametrize("name", IN_PLACE_CASES)
def test_tma_gather_channels_last_output_meets_the_contract(name, poison_allocator):
    """TF32 (the copy form) into channels-last outputs and grad_inputs: the epilogue's [M][N] tile, each warp's lanes
    along the channels."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    run_case(*CASES[name], mode="tf32", layout="channels_last", seed=90 + IN_PLACE_CASES.index(name),
             poison=poison_allocator, algorithm="igemm_tma", grad_like_output=True)
    with precision("tf32"):
        runs, _ = run_channels_last_pass(CASES[name], torch.float32, "igemm_tma", TMA_KERNEL)
    assert runs == 2, (name, runs)  # (TF32 chunks are 32 channels: grouped's forward runs on it too)


def test_tma_gather_16bit_auto_reads_channels_last_in_place_only():
    """"auto" (the switch unset) on DCGAN's channels (K of 2048 both ways): the channels-last source in place, forward
    and grad_input, no copy; the contiguous one on the cp.async gathers; a channels-last source one element off its
    16-byte alignment not in place (the cp.async gathers), and still right."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    if os.environ.get("TCONV_GATHER_TMA_16BIT", "") not in ("", "2"):
        pytest.skip("the default rule (TCONV_GATHER_TMA_16BIT unset)")
    assert run_channels_last_pass(CASES["dcgan_auto"], torch.bfloat16, "auto") == (2, 0)
    # VAE-like kernel 2, stride 2 (K of 256 forward, 512 grad_input: below the copy's K bound, none for in place)
    vae_like = (2, 2, 256, 128, 1, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], [16, 16], True)
    assert run_channels_last_pass(vae_like, torch.bfloat16, "auto") == (2, 0)
    x = torch.randn(2, 512, 16, 16, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(512, 128, 4, 4, device="cuda", dtype=torch.bfloat16)
    with tconv._ops.use_algorithm("auto"), \
            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        tconv.conv_transpose2d(x, w, None, 2, 1)
        torch.cuda.synchronize()
    assert tma16_kernels(prof) == (0, 0)
    # channels-last strides, one element past a 16-byte start
    base = torch.randn(2 * 512 * 16 * 16 + 1, device="cuda", dtype=torch.bfloat16)
    shifted = base[1:].view(2, 16, 16, 512).permute(0, 3, 1, 2)
    assert shifted.is_contiguous(memory_format=torch.channels_last) and shifted.data_ptr() % 16 != 0
    with tconv._ops.use_algorithm("auto"), \
            torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = tconv.conv_transpose2d(shifted, w, None, 2, 1)
        torch.cuda.synchronize()
    assert tma16_kernels(prof) == (0, 0)
    ref = torch.nn.functional.conv_transpose2d(shifted.double(), w.double(), None, 2, 1)
    same = torch.nn.functional.conv_transpose2d(shifted, w, None, 2, 1)
    err, torch_err = ((t.double() - ref).norm() / ref.norm() for t in (out, same))
    assert err <= 2 * torch_err + 1e-3, (err, torch_err)


def tma16_kernels(prof):
    """(launches of the 16-bit TMA gather, of its copy kernel) in a profile."""
    cuda = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    return sum(TMA16_KERNEL in n for n in cuda), sum(TMA16_COPY_KERNEL in n for n in cuda)


# TCONV_TMA_IN_PLACE_PARTIAL (read once per process; on by default since run 454): "auto" gives 16-bit channels-last
# sources read in place the boxes past the grid's end and the 64-column tiles that only "igemm_tma" takes otherwise.
# Under 1, "auto" runs the partial-box cases (forward and grad_input, channels-last grad_output) on the 16-bit TMA
# kernel with no copy and meets the 16-bit contract; under 0 it leaves them to the cp.async gathers, except a GEMM
# whose grid the boxes tile exactly (L1-68-like grad_input: an input grid of 6 x 8 x 8 is three 2 x 8 x 8 boxes; run
# 454 found it taken under 0 too).
# These switch tests count the per-tap kernel's launches under "auto", which since session 82 gives the stride-1 k3
# and k5 cases (three or more W taps) to the 16-bit window (TmaWindow16BitAutoRule): their processes keep "auto" off it.
PER_TAP_ONLY = "import os\nos.environ['TCONV_TMA_WINDOW_16BIT'] = '0'\n"
# Since session 85 "auto" gives channels-last 16-bit calls of at most 32 channels a side at unit stride (kernel D 1) to
# the unit-stride kernel's channels-last form before the window (UnitStrideMmaAutoRule): the window rule's switch tests
# keep that rule off in their processes (TCONV_UNIT_STRIDE_MMA=0).
NOT_UNIT_STRIDE = "import os\nos.environ['TCONV_UNIT_STRIDE_MMA'] = '0'\n"
PARTIAL_CASES = ["partial_boxes_3d", "partial_boxes_phases", "partial_boxes_l1_68"]
PARTIAL_EXACT_UNDER_0 = {"partial_boxes_l1_68": 1}


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_tma_gather_in_place_partial_boxes_switch(tmp_path, mode):
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    code = PER_TAP_ONLY + sixteen_bit_script_head("test_gather_tma_gpu", mode) + f"""
counts = []
for i, name in enumerate(t.PARTIAL_CASES):
    run_case(*t.CASES[name], mode={mode!r}, layout="channels_last", seed=110 + i, poison=poison_cuda_allocator,
             grad_like_output=True)
    counts.append(t.run_channels_last_pass(t.CASES[name], dtype, "auto"))
torch.save(counts, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_TMA_IN_PLACE_PARTIAL", values=("1", "0"))
    for name, on, off in zip(PARTIAL_CASES, saved["1"], saved["0"]):
        assert on == (2, 0) and off == (PARTIAL_EXACT_UNDER_0.get(name, 0), 0), (name, on, off)


# Two blocks per SM for in-place 16-bit calls (igemm_config.h; each switch read once per process):
# TCONV_TMA_SHORT_RING (on by default), 128-column calls of at most 8 taps x chunks on 3-stage blocks
# (TmaGatherShortTile): the forwards of a VAE-like call (kernel 2, stride 2, K 256: 4 stages) and of unet_like (1
# stage), not their grad_inputs (256 and 64 input channels: the 256- and 64-column tiles) nor dcgan_auto's forward
# (32 stages); TCONV_TMA_NARROW_PAIR (on by default), 64-column calls on 4-stage blocks (TmaGatherNarrowPairTile):
# both GEMMs of the partial-box cases; TCONV_TMA_SHORT_WIDE=1 (off by default), short-K calls of 256 columns on the
# short tile too: the VAE-like grad_input (4 taps x 2 chunks), not dcgan_auto's (32 stages). Each case: (its
# arguments, launches of the paired tile under 1, under 0); every case meets the contract under both.
PAIRED_TILES = {
    "TCONV_TMA_SHORT_RING": (("TmaGatherTileOfILi128ELi3ELi32ELi2E", "TmaGatherTileOf<128, 3, 32, 2, "), {
        "vae_like": ((2, 2, 256, 128, 1, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], [16, 16], True), 1, 0),
        "unet_like": (CASES["unet_like"], 1, 0),
        "dcgan_auto": (CASES["dcgan_auto"], 0, 0),
    }),
    "TCONV_TMA_NARROW_PAIR": (("TmaGatherTileOfILi64ELi4ELi32ELi2E", "TmaGatherTileOf<64, 4, 32, 2, "), {
        "partial_boxes_3d": (CASES["partial_boxes_3d"], 2, 0),
        "partial_boxes_l1_68": (CASES["partial_boxes_l1_68"], 2, 0),
    }),
    "TCONV_TMA_SHORT_WIDE": (("TmaGatherTileOfILi128ELi3ELi32ELi2E", "TmaGatherTileOf<128, 3, 32, 2, "), {
        "vae_like": ((2, 2, 256, 128, 1, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], [16, 16], True), 2, 1),
        "dcgan_auto": (CASES["dcgan_auto"], 0, 0),
    }),
}


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
@pytest.mark.parametrize("switch", sorted(PAIRED_TILES))
def test_tma_gather_paired_tiles_switch(tmp_path, switch, mode):
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    code = PER_TAP_ONLY + sixteen_bit_script_head("test_gather_tma_gpu", mode) + f"""
names, cases = t.PAIRED_TILES[{switch!r}]
counts = []
for i, (case, _, _) in enumerate(cases.values()):
    run_case(*case, mode={mode!r}, layout="channels_last", seed=130 + i, poison=poison_cuda_allocator,
             grad_like_output=True)
    tma = [n for n in t.channels_last_pass_kernels(case, dtype, "auto") if t.TMA16_KERNEL in n]
    counts.append((len(tma), sum(any(name in n for name in names) for n in tma)))
torch.save(counts, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, switch, values=("1", "0"))
    cases = PAIRED_TILES[switch][1]
    for name, on, off in zip(cases, saved["1"], saved["0"]):
        assert on == (2, cases[name][1]) and off == (2, cases[name][2]), (name, on, off)


# The 16-bit window (written in session 81 after its device time): "igemm_tma_window" on fp16/bf16 sources read in
# place (channels-last, 16-byte aligned), 32 channels per 64-byte window row, k16 wgmmas; the contract on every case
# (where the window does not apply, the per-tap boxes or the cp.async gathers run), and which passes take it.
@pytest.mark.parametrize("mode", ["bf16", "fp16"])
@pytest.mark.parametrize("name", sorted(CASES) + sorted(WINDOW_CASES))
def test_tma_window_16bit_meets_the_contract(name, mode, poison_allocator):
    case = CASES[name] if name in CASES else WINDOW_CASES[name]
    run_case(*case, mode=mode, layout="channels_last", seed=19, poison=poison_allocator,
             algorithm="igemm_tma_window", grad_like_output=True)


@pytest.mark.parametrize("name, window_runs", [
    ("window_l1_68_like", 2), ("window_wide_2d", 2), ("window_h_stride", 2),
    ("window_phases", 1),  # grad_input at W stride 2: the per-tap boxes
])
def test_tma_window_16bit_is_what_runs(name, window_runs):
    require_tma16()
    names = channels_last_pass_kernels(WINDOW_CASES[name], torch.bfloat16, "igemm_tma_window")
    assert sum(WINDOW_KERNEL in n and "bfloat16" in n for n in names) == window_runs, names
    assert sum(TMA16_KERNEL in n for n in names) == 2 - window_runs, names


# Cases of the 16-bit "auto" rule's wide lines only (kept out of WINDOW_CASES and its every-case tests):
# fam01-like lines, 64 -> 64 channels, 3 W taps, 64 columns each way.
WIDE_RULE_CASES = {
    "window_wide_three": (2, 1, 64, 64, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [5, 300], True),
}


@pytest.mark.parametrize("name, runs", [
    ("window_l1_68_like", {"2": 2, "1": 1, "0": 0}),  # 5 W taps both ways
    ("window_wide_32", {"2": 2, "1": 1, "0": 0}),  # 3 W taps, wide lines of 32 channels
    # wide lines of 64 (forward: 128 columns, refused) and 128 (grad_input: 64 columns, 3 W taps, taken) channels
    ("window_wide_2d", {"2": 1, "1": 0, "0": 0}),
    ("window_wide_five", {"2": 2, "1": 1, "0": 0}),  # 5 W taps, 64 columns both ways
    ("window_wide_five_128", {"2": 1, "1": 0, "0": 0}),  # the forward's 128 columns refused, grad_input's 64 taken
    ("window_wide_three", {"2": 2, "1": 1, "0": 0}),  # 3 W taps (kMinWideLineWTaps) at 64 channels (fam01-like)
    # W stride 2: forward phases of 3 and 2 W taps (the widest counts); grad_input traverses W at step 2 (per-tap)
    ("window_phases", {"2": 1, "1": 1, "0": 0}),
])
def test_tma_window_16bit_auto_switch(tmp_path, name, runs):
    """TmaWindow16BitAutoRule: unset (2), "auto" runs a bf16 channels-last call's forward and grad_input on the 16-bit
    window where a phase has three or more W taps, except wide lines of 64+ source channels with more than 64
    columns; 1 the forward only, 0 neither (the per-tap boxes). Each meets
    the contract. The processes keep the unit-stride kernel's rule off (its channels-last form takes window_wide_32's
    32 -> 32)."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    if os.environ.get("TCONV_GATHER_TMA_16BIT", "") == "0" or os.environ.get("TCONV_TMA_WINDOW_AUTO", "") == "0":
        pytest.skip("TCONV_GATHER_TMA_16BIT=0 or TCONV_TMA_WINDOW_AUTO=0 keeps the forward off the window")
    code = NOT_UNIT_STRIDE + sixteen_bit_script_head("test_gather_tma_gpu", "bf16") + f"""
case = {{**t.WINDOW_CASES, **t.WIDE_RULE_CASES}}[{name!r}]
run_case(*case, mode="bf16", layout="channels_last", seed=23, poison=poison_cuda_allocator, grad_like_output=True)
names = t.channels_last_pass_kernels(case, dtype, "auto")
torch.save(sum(t.WINDOW_KERNEL in n for n in names), sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_TMA_WINDOW_16BIT", values=("2", "1", "0"))
    assert saved == runs, (name, saved)


def test_tma_window_16bit_wide_switch(tmp_path):
    """TCONV_TMA_WINDOW_WIDE: unset (1), "auto" runs wide lines of 64+ source channels on the 16-bit window where the
    pass has three or more W taps and at most 64 columns (window_wide_five and window_wide_three: forward and
    grad_input); 0 refuses them all (the per-tap boxes). Each meets the contract."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    if os.environ.get("TCONV_GATHER_TMA_16BIT", "") == "0" or os.environ.get("TCONV_TMA_WINDOW_AUTO", "") == "0" or \
            os.environ.get("TCONV_TMA_WINDOW_16BIT", "") in ("0", "1"):
        pytest.skip("the switch's case needs \"auto\" on the 16-bit window in both passes")
    code = NOT_UNIT_STRIDE + sixteen_bit_script_head("test_gather_tma_gpu", "bf16") + """
counts = []
for i, case in enumerate([t.WINDOW_CASES["window_wide_five"], t.WIDE_RULE_CASES["window_wide_three"]]):
    run_case(*case, mode="bf16", layout="channels_last", seed=29 + i, poison=poison_cuda_allocator,
             grad_like_output=True)
    counts.append(sum(t.WINDOW_KERNEL in n for n in t.channels_last_pass_kernels(case, dtype, "auto")))
torch.save(counts, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_TMA_WINDOW_WIDE", values=("1", "0"))
    assert saved == {"1": [2, 2], "0": [0, 0]}, saved


# TCONV_TMA_WINDOW_SHORT (read once per process; on by default since run 460, =0 turns it off):
# 16-bit window calls of at most 64 columns and at most 8 (D, H) taps x 32-channel chunks run TmaWindowShortTile (256
# positions a block, 3 stages, one producer warp, two blocks per SM). Each case: (its arguments, launches of the short
# tile in one channels-last forward + backward under "auto" with the switch on); none under 0. Under both, every
# WINDOW_CASES case and these meet the 16-bit contract on "igemm_tma_window" and on "auto".
WINDOW_SHORT_NAMES = ("TmaWindowTileOfILi64ELi1ELi3ELi32ELi2E", "TmaWindowTileOf<64, 1, 3, 32, 2>")
WINDOW_SHORT_CASES = {
    # L1-71-like: 32 channels both ways, 3 x 3, wide lines (W 300): 3 (D, H) taps x 1 chunk, forward and grad_input
    "l1_71_like": ((2, 2, 32, 32, 1, [3, 3], [1, 1], [0, 0], [0, 0], [1, 1], [6, 300], False), 2),
    # narrow planes: 4 (D, H) taps of 32 channels forward, of 64 (2 chunks) in grad_input
    "window_tiny_planes": (WINDOW_CASES["window_tiny_planes"], 2),
    # L1-68-like: 15 (D, H) taps, past the bound both ways: the 512-position tile
    "window_l1_68_like": (WINDOW_CASES["window_l1_68_like"], 0),
}


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_tma_window_short_tile_switch(tmp_path, mode):
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    if os.environ.get("TCONV_GATHER_TMA_16BIT", "") == "0" or os.environ.get("TCONV_TMA_WINDOW_AUTO", "") == "0" or \
            os.environ.get("TCONV_TMA_WINDOW_16BIT", "") in ("0", "1"):
        pytest.skip("the switch's cases need \"auto\" on the 16-bit window in both passes")
    code = NOT_UNIT_STRIDE + sixteen_bit_script_head("test_gather_tma_gpu", mode) + f"""
cases = {{name: case for name, (case, _) in t.WINDOW_SHORT_CASES.items()}}
for i, case in enumerate(list(t.WINDOW_CASES.values()) + list(cases.values())):
    run_case(*case, mode={mode!r}, layout="channels_last", seed=140 + i, poison=poison_cuda_allocator,
             algorithm="igemm_tma_window", grad_like_output=True)
counts = []
for i, case in enumerate(cases.values()):
    run_case(*case, mode={mode!r}, layout="channels_last", seed=160 + i, poison=poison_cuda_allocator,
             grad_like_output=True)
    names = [n for n in t.channels_last_pass_kernels(case, dtype, "auto") if t.WINDOW_KERNEL in n]
    counts.append(sum(any(short in n for short in t.WINDOW_SHORT_NAMES) for n in names))
torch.save(counts, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_TMA_WINDOW_SHORT", values=("1", "0"))
    for name, on, off in zip(WINDOW_SHORT_CASES, saved["1"], saved["0"]):
        assert on == WINDOW_SHORT_CASES[name][1] and off == 0, (name, on, off)


# TCONV_TMA_WINDOW_PERSISTENT (development, unset 1; 0 turns it off): the short tile's one-phase calls of 8k channels
# into channels-last destinations run the persistent window kernel. Same sums in the same order, so forward and
# grad_input agree bit for bit with the switch off; each case meets the contract under "auto" and "igemm_tma_window"
# with it on; the short tile's cases run it in both passes.
PERSISTENT_NAME = "window_persistent_kernel"


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_tma_window_persistent_switch(tmp_path, mode):
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    if os.environ.get("TCONV_GATHER_TMA_16BIT", "") == "0" or os.environ.get("TCONV_TMA_WINDOW_AUTO", "") == "0" or \
            os.environ.get("TCONV_TMA_WINDOW_16BIT", "") in ("0", "1") or \
            os.environ.get("TCONV_TMA_WINDOW_SHORT", "") == "0":
        pytest.skip("the switch's cases need \"auto\" on the 16-bit window's short tile in both passes")
    code = NOT_UNIT_STRIDE + sixteen_bit_script_head("test_gather_tma_gpu", mode) + f"""
cases = {{**t.WINDOW_CASES, **t.WIDE_RULE_CASES}}
cases.update({{name: case for name, (case, _) in t.WINDOW_SHORT_CASES.items()}})
results = []
for i, name in enumerate(sorted(cases)):
    case = cases[name]
    for algorithm in ("auto", "igemm_tma_window"):
        run_case(*case, mode={mode!r}, layout="channels_last", seed=180 + i, poison=poison_cuda_allocator,
                 algorithm=algorithm, grad_like_output=True)
    out, gi, names = t.seeded_channels_last_pass(case, dtype, "auto", 7)
    short = sum(t.WINDOW_KERNEL in n and any(s in n for s in t.WINDOW_SHORT_NAMES) for n in names)
    results.append([name, out, gi, sum(t.PERSISTENT_NAME in n for n in names), short])
torch.save(results, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_TMA_WINDOW_PERSISTENT", values=("1", "0"))
    for on, off in zip(saved["1"], saved["0"]):
        name = on[0]
        assert_passes_bitwise_equal(on, off)
        assert off[3] == 0 and on[3] <= off[4], (name, on[3:], off[3:])
        if name in WINDOW_SHORT_CASES:  # one phase, 32 or 64 channels, channels-last: both passes' short calls
            assert on[3] == WINDOW_SHORT_CASES[name][1] == off[4], (name, on[3:], off[3:])


# The persistent per-tap kernel (default since session 90, TCONV_TMA_GATHER_PERSISTENT=0 turns it off; run 483: 2
# passed): the per-tap boxes' 16-bit calls of at most 8 phases, one column tile of 8k channels, into channels-last
# destinations run the persistent kernel (its blocks loop over (M tile, phase) tiles, the ring's stages and phases
# carried from tile to tile, every phase's tap table built once). Same sums in the same order, so forward and grad_input
# agree bit for bit with the switch off; each case meets the contract under "igemm_tma" with it on; every per-tap launch
# of these cases is persistent under 1, none under 0. Cases: stride1_k3 (forward 128 columns on TmaGatherTile,
# grad_input 64 on the paired 64-column tile), the partial-box cases of one phase (64 columns both ways; L1-68-like: 75
# taps, the ring wrapping within a tile), fam06-like (15 taps over 6 stages) with more M tiles than an H200 runs at
# once, so blocks loop over 2-3 tiles, two groups (grad_input: 32 columns a group); strided: DCGAN-like (4 phases of 4
# taps), U-Net-like (8 phases of one tap on the short tile's 2 stages), phases without taps (bias only), asymmetric 3D
# strides, and a VAE-like call (its grad_input on the 256-column tile).
GATHER_PERSISTENT_CASES = {
    "stride1_k3": CASES["stride1_k3"],
    "partial_boxes_3d": CASES["partial_boxes_3d"],
    "partial_boxes_l1_68": CASES["partial_boxes_l1_68"],
    "fam06_like_many_tiles": (2, 6, 64, 128, 1, [3, 5], [1, 1], [1, 2], [0, 0], [1, 1], [64, 128], True),
    "grouped_stride1": (2, 2, 64, 128, 2, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [16, 32], True),
    "dcgan_like": CASES["dcgan_like"],
    "unet_like": CASES["unet_like"],
    "dilated_empty_phase": CASES["dilated_empty_phase"],
    "asym_3d": CASES["asym_3d"],
    "vae_like": PAIRED_TILES["TCONV_TMA_SHORT_RING"][1]["vae_like"][0],
}
GATHER_PERSISTENT_NAME = "gather_tma16_persistent"  # (both persistent per-tap kernels: the ping-pong one too)


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_tma_gather_persistent_switch(tmp_path, mode):
    require_tma16()
    code = sixteen_bit_script_head("test_gather_tma_gpu", mode) + f"""
results = []
for i, (name, case) in enumerate(t.GATHER_PERSISTENT_CASES.items()):
    run_case(*case, mode={mode!r}, layout="channels_last", seed=190 + i, poison=poison_cuda_allocator,
             algorithm="igemm_tma", grad_like_output=True)
    out, gi, names = t.seeded_channels_last_pass(case, dtype, "igemm_tma", 11)
    results.append([name, out, gi, sum(t.GATHER_PERSISTENT_NAME in n for n in names),
                    sum(t.TMA16_KERNEL in n for n in names)])
torch.save(results, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_TMA_GATHER_PERSISTENT", values=("1", "0"))
    for on, off in zip(saved["1"], saved["0"]):
        name = on[0]
        assert_passes_bitwise_equal(on, off)
        wanted = 1 if name == "grouped_stride1" else 2  # (grouped: 32 channels a group forward, under a 64-channel box)
        assert off[3] == 0 and on[3] == on[4] == off[4] == wanted, (name, on[3:], off[3:])


# The ping-pong tile (the default; TCONV_TMA_GATHER_PING_PONG=0 turns it off; igemm_config.h TmaGatherPingPongTile): the
# per-tap kernel's MMA warpgroups take a block's tiles in turn, each a whole 128-position tile as two 64-row wgmmas, on
# its 16-bit in-place calls of 128 columns (not the paired short tile). Same sums in the same order, so forward and
# grad_input agree bit for bit with it off; each case meets the contract under "igemm_tma" with it on; the ping-pong
# kernel's launches (forward, grad_input) are as listed under 1 and none under 0. Cases: fam06-like (384 tiles: blocks
# take 2-3, so a warpgroup steps over the other's stages and the turns end on either), nine taps on whole boxes (8
# tiles: one a block, the second warpgroup idle), partial boxes in 2D and 3D, phases without taps (the turns count
# tiles of every phase), two groups of 128 columns (grid y), grad_input on 128 columns (its forward's 64 columns stay
# off it) and a U-Net-like call (the paired short tile: not taken).
GATHER_PING_PONG_CASES = {
    "fam06_like_many_tiles": (GATHER_PERSISTENT_CASES["fam06_like_many_tiles"], (1, 0)),
    "stride1_k3": (CASES["stride1_k3"], (1, 0)),
    "partial_2d": ((2, 2, 64, 128, 1, [3, 5], [1, 1], [1, 2], [0, 0], [1, 1], [30, 60], True), (1, 0)),
    "partial_3d": ((3, 1, 64, 128, 1, [3, 3, 3], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1], [6, 7, 8], True),
                   (1, 0)),
    "dilated_empty_phase": (CASES["dilated_empty_phase"], (1, 0)),
    "groups": ((2, 2, 128, 256, 2, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [16, 32], True), (1, 0)),
    "grad_input": ((2, 2, 128, 64, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [16, 32], True), (0, 1)),
    "unet_like_paired": (CASES["unet_like"], (0, 0)),
}
GATHER_PING_PONG_NAME = "gather_tma16_persistent_ping_pong_kernel"


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_tma_gather_ping_pong_switch(tmp_path, mode):
    require_tma16()
    code = sixteen_bit_script_head("test_gather_tma_gpu", mode) + f"""
results = []
for i, (name, (case, _)) in enumerate(t.GATHER_PING_PONG_CASES.items()):
    run_case(*case, mode={mode!r}, layout="channels_last", seed=230 + i, poison=poison_cuda_allocator,
             algorithm="igemm_tma", grad_like_output=True)
    out, gi, names = t.seeded_channels_last_pass(case, dtype, "igemm_tma", 17 + i, by_pass=True)
    results.append([name, out, gi, [sum(t.GATHER_PING_PONG_NAME in n for n in ran) for ran in names]])
torch.save(results, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_TMA_GATHER_PING_PONG", values=("1", "0"))
    for on, off in zip(saved["1"], saved["0"]):
        name = on[0]
        assert_passes_bitwise_equal(on, off)
        assert tuple(on[3]) == GATHER_PING_PONG_CASES[name][1] and tuple(off[3]) == (0, 0), (name, on[3], off[3])


# grad_input_persistent (the concurrent backward's rule, tconv/_ops.py: a grad_input on a persistent grid keeps the
# passes one after the other) answers for the kernels grad_input really launches: the TMA gather's persistent per-tap
# and window kernels and the unit-stride mma.sync grid. Each GATHER_PERSISTENT_CASES case, channels-last bf16 under
# "auto" and contiguous under "igemm_tma" (the per-tap boxes on the copy: not persistent), with the per-tap kernel on
# and off; the query is asked after the pass, as _ops.py asks it.
GRAD_INPUT_PERSISTENT_KERNELS = ("tconv_igemm_gather_tma16_persistent_kernel",
                                 "tconv_igemm_gather_tma16_persistent_ping_pong_kernel",
                                 "tconv_igemm_gather_tma_window_persistent_kernel", "tconv_unit_stride_mma_kernel")


def test_grad_input_persistent_names_the_launched_grid(tmp_path):
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    code = sixteen_bit_script_head("test_gather_tma_gpu", "bf16") + """
results = []
for name, case in t.GATHER_PERSISTENT_CASES.items():
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    for layout, algorithm in (("channels_last", "auto"), ("contiguous", "igemm_tma")):
        fmt = {1: torch.contiguous_format, 2: torch.channels_last, 3: torch.channels_last_3d}[dims]
        fmt = fmt if layout == "channels_last" else torch.contiguous_format
        x = torch.randn(batch, cin, *spatial, device="cuda").to(dtype).contiguous(memory_format=fmt)
        x.requires_grad_()
        w = torch.randn(cin, cout // groups, *kernel, device="cuda").to(dtype)
        with tconv._ops.use_algorithm(algorithm):
            out = t.TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
            dy = torch.randn(out.shape, device="cuda").to(dtype).contiguous(memory_format=fmt)
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                (gi,) = torch.autograd.grad(out, [x], dy)
                torch.cuda.synchronize()
            asked = tconv._ops._grad_input_persistent(dy, w, gi, stride, padding, dilation, groups)
        names = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
        launched = any(k in n for n in names for k in t.GRAD_INPUT_PERSISTENT_KERNELS)
        results.append([name, layout, bool(asked), launched])
torch.save(results, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_TMA_GATHER_PERSISTENT", values=("1", "0"))
    for value, rows in saved.items():
        wrong = [row for row in rows if row[2] != row[3]]
        assert not wrong, (value, wrong)
    assert any(row[3] for row in saved["1"]), saved["1"]  # the strided cases' grad_input: persistent per-tap boxes


ROUNDED_KERNEL = "tconv_igemm_gather_tma_rounded_kernel"
COPY32_KERNEL = "tconv_gather_tma_channels_last_kernel"


def rounded_pass_script(cases, contract_when, contract_seed, pass_seed, by_pass=False, head=""):
    """A run_under_switch script: for each (name, case) of the expression `cases`, the TF32 contract under "igemm_tma"
    (channels-last tensors, poisoned outputs) where the expression `contract_when` holds, then one seeded channels-last
    pass (seeded_channels_last_pass); saves [name, output, grad_input, kernel names] rows. `head` runs first."""
    return ("import os, sys, torch\n" + head +
            "import tconv\n"
            "import test_gather_tma_gpu as t\n"
            "from test_conv_transpose_gpu import precision\n"
            "from conftest import poison_cuda_allocator\n"
            f"contract = {contract_when}\n"
            "results = []\n"
            f"for i, (name, case) in enumerate({cases}):\n"
            "    if contract:\n"
            f"        t.run_case(*case, mode='tf32', layout='channels_last', seed={contract_seed} + i,\n"
            "                   poison=poison_cuda_allocator, algorithm='igemm_tma', grad_like_output=True)\n"
            "    with precision('tf32'):\n"
            "        out, grad_x, names = t.seeded_channels_last_pass(case, torch.float32, 'igemm_tma',\n"
            f"                                                         {pass_seed} + i, by_pass={by_pass})\n"
            "    results.append([name, out, grad_x, names])\n"
            "torch.save(results, sys.argv[1])\n")


def test_tma_gather_fp32_in_place_agrees_bitwise_with_the_copy(tmp_path):
    """TF32 channels-last fp32 sources read in place (TCONV_TMA_FP32_IN_PLACE=2: wherever the source maps, "igemm_tma"
    too; a fresh process per value): every in-place case meets the precision contract with every gradient (run_case,
    poisoned outputs, channels-last grad_output), runs its forward and grad_input on the rounded kernel with no copy,
    and gives the copy form's output and grad_input (=0: "igemm_tma" on the rounded copy) bit for bit: the same TF32
    values (to_tf32 in both), the same wgmmas in the same K order, A from registers instead of shared memory."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    code = rounded_pass_script("((name, t.CASES[name]) for name in t.IN_PLACE_CASES)",
                               "os.environ['TCONV_TMA_FP32_IN_PLACE'] == '2'", 110, 210, by_pass=True)
    saved = run_under_switch(code, tmp_path, "TCONV_TMA_FP32_IN_PLACE", values=("2", "0"))
    for on, off in zip(saved["2"], saved["0"]):
        name, (forward, backward) = on[0], on[3]
        for pass_name, names in (("forward", forward), ("grad_input", backward)):
            assert sum(ROUNDED_KERNEL in n for n in names) == 1, (name, pass_name, names)
            assert not any(COPY32_KERNEL in n or TMA_KERNEL in n for n in names), (name, pass_name, names)
        assert sum(TMA_KERNEL in n for n in off[3][0] + off[3][1]) == 2, (name, off[3])
        assert_passes_bitwise_equal(on, off)


# TF32 k2 s2 up-convolutions (K 256 and 64 forward, 512 and 1024 grad_input: under the copy form's K bound) and a
# partial-box grid with 130 columns: what "auto" reads in place by default (run 572, H100: real_unet3d_up's forward
# 0.887 -> 0.306 ms).
ROUNDED_AUTO_CASES = {
    "vae_like": (2, 2, 256, 128, 1, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], [16, 16], True),
    "unet_like": CASES["unet_like"],
    "partial_130": (2, 1, 96, 130, 1, [3, 3], [2, 2], [1, 1], [1, 1], [1, 1], [5, 14], False),
}


@pytest.mark.parametrize("name", sorted(ROUNDED_AUTO_CASES))
def test_tma_gather_fp32_in_place_under_auto(name, poison_allocator):
    """By default (TCONV_TMA_FP32_IN_PLACE unset) "auto" reads channels-last TF32 sources under the copy form's K bound
    in place, forward and grad_input, with no copy, within the precision contract; contiguous ones and exact fp32 stay
    off it."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    if os.environ.get("TCONV_TMA_FP32_IN_PLACE", "") not in ("", "1") or \
            os.environ.get("TCONV_GATHER_TMA", "") == "0":
        pytest.skip("the default rule")
    case = ROUNDED_AUTO_CASES[name]
    run_case(*case, mode="tf32", layout="channels_last", seed=130 + sorted(ROUNDED_AUTO_CASES).index(name),
             poison=poison_allocator, algorithm="auto", grad_like_output=True)
    with precision("tf32"):
        _, _, (forward, backward) = seeded_channels_last_pass(case, torch.float32, "auto", 7, by_pass=True)
    # (partial_130's grad_output has 520-byte positions, which no tensor map takes: its grad_input stays off the form)
    for pass_name, names in (("forward", forward), ("grad_input", backward)):
        expected = 0 if (name, pass_name) == ("partial_130", "grad_input") else 1
        assert sum(ROUNDED_KERNEL in n for n in names) == expected, (name, pass_name, names)
        assert not any(COPY32_KERNEL in n for n in names), (name, pass_name, names)
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    x = torch.randn(batch, cin, *spatial, device="cuda")
    w = torch.randn(cin, cout // groups, *kernel, device="cuda")
    for mode, tensor in (("tf32", x), ("fp32", x.contiguous(memory_format=torch.channels_last if dims == 2
                                                              else torch.channels_last_3d))):
        with precision(mode), tconv._ops.use_algorithm("auto"), \
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            TCONV_FN[dims](tensor, w, None, stride, padding, output_padding, groups, dilation)
            torch.cuda.synchronize()
        assert not any(ROUNDED_KERNEL in e.name for e in prof.events()), (name, mode)


def test_tma_gather_fp32_in_place_wide_agrees_bitwise(tmp_path):
    """The in-place fp32 form on 256-column tiles (TCONV_TMA_FP32_IN_PLACE_WIDE=1, with TCONV_TMA_FP32_IN_PLACE=2 so
    "igemm_tma" takes the form; a fresh process per value): the contract on the cases of 256 columns or more (forward
    or grad_input), the 256-column rounded kernel launched, and outputs and grad_input bit for bit equal to the
    128-column tiles' (each column's sums are the same wgmma steps whatever the tile's width)."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    code = rounded_pass_script("sorted(t.ROUNDED_WIDE_CASES.items())",
                               "os.environ['TCONV_TMA_FP32_IN_PLACE_WIDE'] == '1'", 150, 250,
                               head="os.environ['TCONV_TMA_FP32_IN_PLACE'] = '2'\n")
    saved = run_under_switch(code, tmp_path, "TCONV_TMA_FP32_IN_PLACE_WIDE", values=("1", "0"))
    for on, off in zip(saved["1"], saved["0"]):
        assert any(ROUNDED_KERNEL in n and "TmaGatherTileOf<256" in n for n in on[3]), (on[0], on[3])
        assert not any("TmaGatherTileOf<256" in n for n in off[3]), (off[0], off[3])
        assert_passes_bitwise_equal(on, off)


# Calls with 256 or more columns in a pass: wide_columns (320 forward, 256 grad_input) and a VAE-like k2 s2 (256 input
# channels: grad_input's 256 columns).
ROUNDED_WIDE_CASES = {
    "wide_columns": CASES["wide_columns"],
    "vae_like": ROUNDED_AUTO_CASES["vae_like"],
}


# Forward phases whose grids differ (the stride does not divide the output's extent): TCONV_TMA_UNEQUAL_PHASES.
UNEQUAL_PHASE_CASES = {
    # fam10's geometry (k3 s2 p1 d2): the odd outputs take every tap, the even ones none; grids 5 / 4, 9 / 8, 17 / 16
    "fam10_like": (3, 2, 32, 64, 1, [3, 3, 3], [2, 2, 2], [1, 1, 1], [0, 0, 0], [2, 2, 2], [4, 8, 16], True),
    # k3 s2 p1: both phases tapped, grids of 16 and 15 (31 outputs), 128 columns
    "odd_outputs": (2, 2, 64, 128, 1, [3, 3], [2, 2], [1, 1], [0, 0], [1, 1], [16, 16], True),
    # H stride 3 (grids 6, 6, 5), W stride 2 (10, 9), 96 columns (a partial tile)
    "stride3_uneven": (2, 2, 32, 96, 1, [3, 5], [3, 2], [1, 2], [1, 0], [1, 1], [6, 10], False),
}


def test_tma_gather_unequal_phases_switch(tmp_path):
    """TCONV_TMA_UNEQUAL_PHASES=1 (a fresh process per value): TF32 forwards whose phases' grids differ in length run
    on the per-tap TMA boxes, each block storing within its own phase's grid (blocks past it store nothing), and meet
    the precision contract with every gradient (poisoned outputs): channels-last under "auto" (read in place: the
    rounded kernel) and under "igemm_tma", contiguous under "igemm_tma" (the copy form). =0: no TMA kernel takes
    their forward."""
    if not hopper_wgmma():
        pytest.skip("the TMA gather is built for sm_90a and runs on compute capability 9.0")
    # (fam10_like's taps all land on one residue: "auto" would run its forward as a stride-1 call into a view,
    # tconv/_phase_view.py, so these processes keep that off)
    code = ("import os, sys, torch\nos.environ['TCONV_FORWARD_PHASE_VIEW'] = '0'\nimport tconv\n"
            "import test_gather_tma_gpu as t\n"
            "from test_conv_transpose_gpu import precision\nfrom conftest import poison_cuda_allocator\n"
            "on = os.environ['TCONV_TMA_UNEQUAL_PHASES'] == '1'\nresults = []\n"
            "for i, (name, case) in enumerate(sorted(t.UNEQUAL_PHASE_CASES.items())):\n"
            "    if on:\n"
            "        for layout, algorithm in (('channels_last', 'auto'), ('channels_last', 'igemm_tma'),\n"
            "                                  ('contiguous', 'igemm_tma')):\n"
            "            t.run_case(*case, mode='tf32', layout=layout, seed=170 + i, poison=poison_cuda_allocator,\n"
            "                       algorithm=algorithm, grad_like_output=layout == 'channels_last')\n"
            "    with precision('tf32'):\n"
            "        _, _, names = t.seeded_channels_last_pass(case, torch.float32, 'auto', 270 + i, by_pass=True)\n"
            "    results.append([name, names[0]])\n"
            "torch.save(results, sys.argv[1])\n")
    saved = run_under_switch(code, tmp_path, "TCONV_TMA_UNEQUAL_PHASES", values=("1", "0"))
    for (name, forward_on), (_, forward_off) in zip(saved["1"], saved["0"]):
        assert sum(ROUNDED_KERNEL in n for n in forward_on) == 1, (name, forward_on)
        assert not any(ROUNDED_KERNEL in n or TMA_KERNEL in n for n in forward_off), (name, forward_off)
