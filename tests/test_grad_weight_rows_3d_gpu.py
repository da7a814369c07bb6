"""The rows grad_weight kernel on 3D problems (kD > 1), the default since run 361 (skipped without CUDA).

The rows kernel (tconv_igemm_grad_weight_wgmma_rows[_specialized]_kernel: Hopper, fp32 data in TF32 mode, a W fold
of 2, an even kH, >= 128 input channels per group, TMA-mappable tensors) was first planned for kD = 1 only. Its
blocks, stage cursor, 5-D boxes and sums are written for any kD; run 361 measured it on U-Net 3D (grad_weight 0.542 ->
0.270 ms) and it became the default, with the development switch TCONV_GRAD_WEIGHT_ROWS_3D=0 (read once per process:
conv_transpose_igemm.cu, grad_weight_rows_3d) keeping 3D problems off it. Checked here, in a fresh process per value
of the switch: the precision contract of every gradient (against float64 and against PyTorch in TF32) on a U-Net-like
k2 s2, a kD 3 / D stride 1 / padded one with a partial C_in tile and two W chunks, and a grouped one with D dilation
and output padding (all W kernel 2 at W stride 2: a 3D grad_weight folds only where the W kernel equals the stride,
grad_weight_fold_shape), in two layouts; and that the rows kernel is what runs under 1 (the default; channels_last
on its channels-last form, the default since run 576) and never under 0.
"""
import pytest

from conftest import cuda_ready, run_under_switch, wgmma_kernels_run

pytestmark = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU")

# dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
ROWS_3D_GRID = [
    (3, 2, 128, 64, 1, [2, 2, 2], [2, 2, 2], [0, 0, 0], [0, 0, 0], [1, 1, 1], [3, 4, 8], True),
    (3, 1, 160, 40, 1, [3, 2, 2], [1, 2, 2], [1, 0, 0], [0, 0, 0], [1, 1, 1], [4, 3, 20], False),
    (3, 2, 256, 48, 2, [2, 4, 2], [2, 2, 2], [1, 1, 0], [1, 1, 0], [2, 1, 1], [3, 4, 12], True),
]
LAYOUTS = ("contiguous", "channels_last")

CODE = """
import sys, torch
from test_conv_transpose_gpu import run_case
from test_grad_weight_rows_3d_gpu import ROWS_3D_GRID, LAYOUTS
names = []
for i, case in enumerate(ROWS_3D_GRID):
    for layout in LAYOUTS:
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            run_case(*case, mode="tf32", layout=layout, seed=43 + i, algorithm="igemm",
                     grad_like_output=layout == "channels_last")
            torch.cuda.synchronize()
        names.append([e.name for e in prof.events() if "tconv" in e.name and "grad_weight" in e.name])
torch.save(names, sys.argv[1])
"""


def test_grad_weight_rows_3d_under_switch(tmp_path):
    if not wgmma_kernels_run():
        pytest.skip("the rows kernel runs on sm_90a builds on compute capability 9.0")
    # run_case asserts the contract inside each process; a failure there fails the run (its stderr is shown)
    runs = run_under_switch(CODE, tmp_path, "TCONV_GRAD_WEIGHT_ROWS_3D")
    for i in range(len(ROWS_3D_GRID)):
        for j, layout in enumerate(LAYOUTS):
            on, off = runs["1"][i * len(LAYOUTS) + j], runs["0"][i * len(LAYOUTS) + j]
            assert on and off, (i, layout, on, off)
            assert not any("rows_" in n for n in off), (i, layout, off)
            # channels-last data take the rows kernel's channels-last form (TCONV_GRAD_WEIGHT_ROWS_CHANNELS_LAST) where
            # grad_output is channels-last too, as autograd hands it on for a channels-last output (run 577 gave
            # case 0 a contiguous grad_output: mma.sync, rightly; scripts/rows_3d_swap_probe.py, run 578: the rows
            # kernel with both channels-last)
            assert any("rows_" in n for n in on), (i, layout, on)
