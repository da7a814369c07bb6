"""The 16-bit rows grad_weight kernel (tconv_igemm_grad_weight_wgmma_rows16_kernel; skipped without CUDA).

fp16/bf16 problems that the rows kernel's plan takes (Hopper, a W fold of 2, an even kH, >= 128 input channels per
group, TMA-mappable tensors: conv_transpose_igemm.cu, grad_weight_takes_rows) run it unless the development switch
TCONV_GRAD_WEIGHT_ROWS16=0 (read once per process) keeps them on the widened mma.sync kernels. Checked here, in a
fresh process per value of the switch: the precision contract of every gradient (against float64 and against
PyTorch in the same dtype) in fp16 and bf16, on a DCGAN-like k4 s2 p1 (two folded taps, two W chunks, the second
partial), a k2 s2 with a partial C_in tile, a partial W chunk and bias, a grouped one with H dilation and output
padding, and a 3D k2 s2, in two layouts; and that the 16-bit rows kernel is what runs for the contiguous ones under 1
and never under 0 (nor for channels_last, whose W is not contiguous).
"""
import pytest

from conftest import assert_bitwise_equal, cuda_ready, run_under_switch, wgmma_kernels_run

pytestmark = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU")

# dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias. Input W sizes are
# multiples of 8: the rows kernels' TMA maps need strides of whole 16 bytes (run 363: W 20 was rightly refused).
ROWS16_GRID = [
    (2, 2, 128, 64, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [6, 24], False),
    (2, 3, 160, 40, 1, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], [5, 8], True),
    (2, 2, 256, 48, 2, [4, 2], [2, 2], [1, 0], [1, 0], [2, 1], [4, 16], True),
    (3, 2, 128, 64, 1, [2, 2, 2], [2, 2, 2], [0, 0, 0], [0, 0, 0], [1, 1, 1], [3, 4, 8], True),
]
MODES = ("bf16", "fp16")
LAYOUTS = ("contiguous", "channels_last")

CODE = """
import sys, torch
from test_conv_transpose_gpu import run_case
from test_grad_weight_rows16_gpu import ROWS16_GRID, MODES, LAYOUTS
names = []
for i, case in enumerate(ROWS16_GRID):
    for mode in MODES:
        for layout in LAYOUTS:
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                run_case(*case, mode=mode, layout=layout, seed=53 + i, algorithm="igemm")
                torch.cuda.synchronize()
            names.append([e.name for e in prof.events() if "tconv" in e.name and "grad_weight" in e.name])
torch.save(names, sys.argv[1])
"""


def test_grad_weight_rows16_under_switch(tmp_path):
    if not wgmma_kernels_run():
        pytest.skip("the rows kernels run on sm_90a builds on compute capability 9.0")
    # run_case asserts the contract inside each process; a failure there fails the run (its stderr is shown)
    runs = run_under_switch(CODE, tmp_path, "TCONV_GRAD_WEIGHT_ROWS16")
    wrong = []
    at = 0
    for i in range(len(ROWS16_GRID)):
        for mode in MODES:
            for layout in LAYOUTS:
                on, off = runs["1"][at], runs["0"][at]
                at += 1
                took = (any("rows16" in n for n in on), any("rows16" in n for n in off))
                if not (on and off) or took != (layout == "contiguous", False):
                    wrong.append((i, mode, layout, on, off))
    assert not wrong, wrong


# The swizzled form (the default; TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE=0 gives two 8-position x boxes per unit) reads
# the same values into the same wgmmas in the same order: grad_weight bit for bit as the default form's, and the
# swizzled kernel is what runs.
SWIZZLE_CODE = """
import sys, torch, tconv
from test_grad_weight_rows16_gpu import ROWS16_GRID
FUNCTIONS = {2: tconv.conv_transpose2d, 3: tconv.conv_transpose3d}
grads, names = [], []
g = torch.Generator(device="cuda").manual_seed(11)
for dtype in (torch.bfloat16, torch.float16):
    for dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias in ROWS16_GRID:
        x = torch.randn(batch, cin, *spatial, device="cuda", generator=g).to(dtype)
        w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=g).to(dtype).requires_grad_()
        with tconv._ops.use_algorithm("igemm"), \\
                torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = FUNCTIONS[dims](x, w, None, stride, padding, output_padding, groups, dilation)
            out.backward(torch.randn(out.shape, device="cuda", generator=g).to(dtype))
            torch.cuda.synchronize()
        grads.append(w.grad.cpu())
        names.append([e.name for e in prof.events() if "rows16" in e.name])
torch.save((grads, names), sys.argv[1])
"""


def test_grad_weight_rows16_swizzled_same_bits(tmp_path):
    if not wgmma_kernels_run():
        pytest.skip("the rows kernels run on sm_90a builds on compute capability 9.0")
    runs = run_under_switch(SWIZZLE_CODE, tmp_path, "TCONV_GRAD_WEIGHT_ROWS16_SWIZZLE")
    (swizzled, swizzled_names), (plain, plain_names) = runs["1"], runs["0"]
    assert_bitwise_equal(swizzled, plain, "grad_weight, swizzled x against two boxes")
    for on, off in zip(swizzled_names, plain_names):
        assert on and all(", true>(" in n for n in on), on
        assert off and all(", false>(" in n for n in off), off
